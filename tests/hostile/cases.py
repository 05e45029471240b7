"""The hostile-input corpus: command lines a careless or hostile user may type.

Each case is ``(id, argv, expected fragment of stderr)``: the command must exit 2 with one
clear message holding the fragment, print no traceback, and leave no new file behind.  In
``argv`` these placeholders are filled in by the test: ``{tmp}`` (an empty scratch folder),
``{file}`` (a regular file), ``{fifo}`` (a FIFO), ``{missing}`` (a path that does not exist),
``{link_fifo}`` (a symbolic link to the FIFO), ``{bad_n}`` (a level whose N has 5,000 digits),
``{wide_n}`` (a level whose N is in fullwidth digits), ``{long}`` (a 5,000-character path).
Add a row for every new bug found.
"""

from __future__ import annotations

BRICKS = "2,1;5,4;6,6"

#: (case id, argv, fragment of the one-line error).
EXIT_2_CASES: list[tuple[str, list[str], str]] = [
    # --- output paths: folders, paths under a file, missing folders, FIFOs, links
    ("export-gif-is-folder", ["export", "7", "--bricks", BRICKS, "--gif", "{tmp}"], "is a folder"),
    ("export-gif-under-file", ["export", "7", "--bricks", BRICKS, "--gif", "{file}/x.gif"], "is not a folder"),
    ("export-gif-missing-folder", ["export", "7", "--bricks", BRICKS, "--gif", "{missing}/x.gif"], "does not exist"),
    ("export-gif-fifo", ["export", "7", "--bricks", BRICKS, "--gif", "{fifo}"], "not a regular file"),
    ("export-gif-link-to-fifo", ["export", "7", "--bricks", BRICKS, "--gif", "{link_fifo}"], "not a regular file"),
    ("export-gif-empty", ["export", "7", "--bricks", BRICKS, "--gif", ""], "path is empty"),
    ("export-gif-long", ["export", "7", "--gif", "{long}"], "too long"),
    ("solve-gif-is-folder", ["solve", "7", "--gif", "{tmp}"], "is a folder"),
    ("generate-out-is-file", ["generate", "--size", "8x8", "--bricks", "1", "--out", "{file}"], "is not a folder"),
    ("generate-out-missing-parent", ["generate", "--size", "8x8", "--bricks", "1", "--out", "{missing}/a"],
     "does not exist"),
    ("learn-out-is-folder", ["learn", "--out", "{tmp}"], "is a folder"),
    ("learn-out-fifo", ["learn", "--out", "{fifo}"], "not a regular file"),
    ("play-screenshot-missing-folder", ["play", "7", "--frames", "2", "--screenshot", "{missing}/shot.png"],
     "does not exist"),
    ("bench-results-is-folder", ["bench", "--results", "{tmp}"], "is a folder"),
    # --- input paths
    ("check-fifo", ["check", "{fifo}"], "not a regular file"),
    ("check-folder", ["check", "{tmp}"], "is a folder"),
    ("check-long-path", ["check", "{long}"], "not a usable level path"),
    ("check-missing", ["check", "{missing}"], "no such file"),
    ("check-name-too-long", ["check", "x" * 300], "File name too long"),
    ("play-name-too-long", ["play", "x" * 300, "--frames", "1"], "File name too long"),
    ("play-fifo-level", ["play", "{fifo}", "--frames", "1"], "not a regular file"),
    ("check-5000-digit-n", ["check", "{bad_n}"], "5000-digit number"),
    ("check-fullwidth-n", ["check", "{wide_n}"], "ASCII digits"),
    ("simulate-fifo", ["simulate", "{fifo}"], "not a regular file"),
    ("verify-missing-progress", ["verify", "--progress", "{missing}"], "does not exist"),
    ("verify-fifo-progress", ["verify", "--progress", "{fifo}"], "not a regular file"),
    # --- numbers: ASCII digits within documented ranges
    ("simulate-5000-digit-brick", ["simulate", "7", "--bricks", "9" * 5000 + ",1"], "cannot read bricks"),
    ("simulate-fullwidth-brick", ["simulate", "7", "--bricks", "\uff12,1"], "ASCII digits"),
    ("simulate-arabic-indic-brick", ["simulate", "7", "--bricks", "\u0662,\u0661"], "ASCII digits"),
    ("simulate-fullwidth-pack-number", ["simulate", "\uff11"], "no such file"),
    ("simulate-huge-pack-number", ["simulate", "9" * 5000], "not a usable level path"),
    ("simulate-big-pack-number", ["simulate", "9" * 30], "there is no level"),
    ("simulate-unclosed-paren", ["simulate", "7", "--bricks", "(2,1;5,4"], "never closed"),
    ("simulate-unopened-paren", ["simulate", "7", "--bricks", "2,1)"], "never opened"),
    ("hint-unbalanced-paren", ["hint", "7", "--bricks", "(2,1"], "never closed"),
    ("export-unbalanced-paren", ["export", "7", "--bricks", "2,1)", "--gif", "{tmp}/x.gif"], "never opened"),
    ("play-unbalanced-paren", ["play", "7", "--bricks", "((2,1)"], "cannot read bricks"),
    ("solve-time-limit-zero", ["solve", "7", "--time-limit", "0"], "more than 0"),
    ("solve-time-limit-negative", ["solve", "7", "--time-limit", "-1"], "more than 0"),
    ("solve-time-limit-nan", ["solve", "7", "--time-limit", "nan"], "more than 0"),
    ("solve-time-limit-inf", ["solve", "7", "--time-limit", "inf"], "more than 0"),
    ("hint-time-limit-nan", ["hint", "7", "--time-limit", "nan"], "more than 0"),
    ("bench-time-limit-zero", ["bench", "--time-limit", "0"], "more than 0"),
    ("export-time-limit-nan", ["export", "7", "--relaxed", "lp", "--time-limit", "nan", "--gif", "{tmp}/x.gif"],
     "more than 0"),
    ("export-scale-zero", ["export", "7", "--scale", "0", "--gif", "{tmp}/x.gif"], "from 1 to 8"),
    ("export-fps-nan", ["export", "7", "--fps", "nan", "--gif", "{tmp}/x.gif"], "--fps"),
    ("generate-time-limit-negative", ["generate", "--size", "8x8", "--bricks", "1", "--time-limit", "-5",
                                      "--out", "{tmp}/g"], "more than 0"),
    ("generate-frames-too-many", ["generate", "--size", "8x8", "--bricks", "1", "--frames", "20000",
                                  "--out", "{tmp}/g"], "from 2 to 10000"),
    ("generate-fullwidth-bricks", ["generate", "--size", "8x8", "--bricks", "\uff11", "--out", "{tmp}/g"],
     "ASCII digits"),
    ("generate-arabic-indic-seed", ["generate", "--size", "8x8", "--bricks", "1", "--seed", "\u0663",
                                    "--out", "{tmp}/g"], "ASCII digits"),
    ("generate-bricks-beyond-the-map", ["generate", "--size", "8x8", "--bricks", "999", "--out", "{tmp}/g"],
     "cannot fit the 8x8 map"),
    ("generate-lemmings-beyond-the-map", ["generate", "--size", "8x8", "--bricks", "1", "--lemmings", "9999",
                                          "--out", "{tmp}/g"], "cannot fit the 8x8 map"),
    ("generate-difficulty-inf", ["generate", "--size", "8x8", "--bricks", "1", "--difficulty", "inf",
                                 "--out", "{tmp}/g"], "--difficulty"),
    ("generate-difficulty-overflow", ["generate", "--size", "8x8", "--bricks", "1", "--difficulty", "1e308-1e309",
                                      "--out", "{tmp}/g"], "--difficulty"),
    ("generate-fullwidth-size", ["generate", "--size", "\uff18x8", "--bricks", "1", "--out", "{tmp}/g"], "--size"),
    ("learn-seed-negative", ["learn", "--seed", "-1"], "from 0 to"),
    ("learn-games-huge", ["learn", "--games", "100000000"], "from 0 to 10000"),
    ("play-window-1x1", ["play", "7", "--width", "1", "--height", "1", "--frames", "1"], "--width"),
    ("play-window-huge", ["play", "7", "--width", "99999999", "--frames", "1"], "--width"),
    ("play-frames-negative", ["play", "7", "--frames", "-5"], "--frames"),
    # --- options that contradict each other
    ("play-screenshot-after-the-last-frame", ["play", "7", "--frames", "29", "--screenshot", "{tmp}/s.png"],
     "--frames 29 ends the run first"),
    ("edit-screenshot-after-the-last-frame", ["edit", "7", "--frames", "3", "--screenshot-frame", "5",
                                              "--screenshot", "{tmp}/s.png"], "--frames 3 ends the run first"),
    ("pegs-play-screenshot-after-the-last-frame", ["pegs", "play", "--frames", "5", "--screenshot", "{tmp}/s.png"],
     "--frames 5 ends the run first"),
]
