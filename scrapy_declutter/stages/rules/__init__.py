"""The rules of the ``declutter`` pipeline's decision, one job each.

``extraction/presets.py`` lists them in order (``decision_stages``). A rule
reads the blocks, the page's evidence (``stages/evidence.py``) and what the
rules before it wrote (a block's label and ``Reason``), never another rule's
module; each has a ``name``, by which ``Options.rules_off`` leaves it out.
"""
