import pytest

from scrapy_declutter.stages.justext import ClassifyContextSensitive
from tests.factory import doc_of, labels


def run(codes: str) -> str:
    doc = doc_of(*codes)
    ClassifyContextSensitive()(doc)
    return "".join(label[0] for label in labels(doc))


@pytest.mark.parametrize(
    "before, after",
    [
        # good and bad blocks never change
        ("gb", "gb"),
        # between two good blocks: everything good
        ("gssg", "gggg"),
        ("gnsng", "ggggg"),
        # between two bad blocks: everything bad
        ("bssb", "bbbb"),
        ("bnsnb", "bbbbb"),
        # bad on the left, good on the right, with a near-good: the near-good
        # nearest the bad block divides; blocks before it are bad
        ("bsnsg", "bbggg"),
        ("bssnssg", "bbbgggg"),
        # the same, mirrored
        ("gsnsb", "gggbb"),
        # with two near-goods, the one nearest the bad side divides
        ("bsnsnsg", "bbggggg"),
        # good/bad with no near-good: all short blocks bad
        ("bssg", "bbbg"),
        ("gssb", "gbbb"),
        # document edges count as bad
        ("ssg", "bbg"),
        ("gss", "gbb"),
        ("nsg", "ggg"),
        ("sng", "bgg"),
        ("gsn", "ggg"),
        ("ss", "bb"),
        ("nn", "bb"),
        ("", ""),
    ],
)
def test_neighbour_cases(before, after):
    assert run(before) == after


def test_long_runs_are_linear():
    # a million short blocks between two good ones: no quadratic search
    codes = "g" + "s" * 1_000_000 + "g"
    assert set(run(codes)) == {"g"}
