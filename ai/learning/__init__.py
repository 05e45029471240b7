"""Learning the rules of Lemming Bricks from games, verifying them, and printing them.

* :mod:`ai.learning.features` - the 3x3 neighbourhood features and the reference table;
* :mod:`ai.learning.dataset` - random games run with the core's occupancy simulator;
* :mod:`ai.learning.models` - decision tree, pairwise logistic regression, small MLP;
* :mod:`ai.learning.trees` - decision trees as plain data (validation, paths, printing);
* :mod:`ai.learning.hidden` - positions-only learning (an invented hidden state);
* :mod:`ai.learning.positions_verify` - exhaustive verification of a positions-only model;
* :mod:`ai.learning.verify` - exhaustive verification against the reference rule;
* :mod:`ai.learning.active` - active learning with query levels;
* :mod:`ai.learning.learn` - the pipeline and sample-efficiency measurements;
* :mod:`ai.learning.rules` - learned rules as JSON, readable printing;
* :mod:`game.cli.learn` - ``python main.py learn``.

scikit-learn is imported only inside the fitting functions.
"""
