"""An HTML report of a page's blocks, for a person to see why each was kept or removed."""

from html import escape

from scrapy_declutter.core.extraction import ExtractionResult

_STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; color: #222; }
.block { margin: .6rem 0; padding: .4rem .7rem; border-left: .35rem solid; }
.good { border-color: #2a8c3c; background: #eef8f0; }
.bad { border-color: #c0392b; background: #f6f6f6; color: #777; }
.bad .text { text-decoration: line-through; text-decoration-color: #c0392b80; }
.meta { font: 12px ui-monospace, monospace; color: #555; }
.label { font-weight: bold; text-transform: uppercase; }
.heading .text { font-weight: bold; }
"""


def render_report(result: ExtractionResult) -> str:
    """The page's blocks in document order: kept blocks green, removed ones struck out."""
    blocks = [block.to_dict() for block in result.blocks]
    kept = sum(block["label"] == "good" for block in blocks)
    title = escape(result.title or result.url or "page")
    parts = [
        "<!DOCTYPE html>",
        '<html><head><meta charset="utf-8">',
        f"<title>declutter report: {title}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{title}</h1>",
        f'<p class="meta">url: {escape(result.url or "-")} | pipeline: {escape(result.pipeline)}'
        f" | language: {escape(str(result.language))} | {kept} kept, "
        f"{len(blocks) - kept} removed of {len(blocks)} blocks</p>",
    ]
    for block in blocks:
        state = "good" if block["label"] == "good" else "bad"
        verdict = "kept" if state == "good" else "removed"
        heading = " heading" if block["heading"] else ""
        score = "" if block["score"] is None else f" score={block['score']:.2f}"
        first = block["block_score"]
        score += "" if first is None else f" block score={first:.2f}"
        parts.append(
            f'<div class="block {state}{heading}" title="{escape(block["xpath"])}">'
            f'<div class="meta"><span class="label">{verdict}</span> '
            f"label={escape(str(block['label']))} context-free={escape(str(block['cf_label']))}"
            f" length={block['length']} words={block['words']}"
            f" link density={block['link_density']:.2f}"
            f" stopword density={block['stopword_density']:.2f}"
            f"{score}{heading}</div>"
            f'<div class="text">{escape(block["text"])}</div></div>'
        )
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def format_blocks(result: ExtractionResult, width: int = 60) -> str:
    """One line per block: label, context-free class, heading, length,
    densities, the content model's score (``-`` without one), text."""
    lines = [
        f"{'label':<6}{'cf':<10}{'h':<2}{'length':>7}{'links':>7}{'stops':>7}{'score':>7}  text"
    ]
    for block in result.blocks:
        text = block.text if len(block.text) <= width else block.text[: width - 1] + "…"
        score = "-" if block.score is None else f"{block.score:.2f}"
        lines.append(
            f"{block.label or '-':<6}{block.cf_label or '-':<10}{'h' if block.heading else '':<2}"
            f"{block.length:>7}{block.link_density:>7.2f}{block.stopword_density:>7.2f}{score:>7}"
            f"  {text}"
        )
    return "\n".join(lines)
