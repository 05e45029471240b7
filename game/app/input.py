"""The one place where pygame events become game actions.

Scenes never look at raw pygame events: :func:`translate` turns each event into zero
or more :class:`Action` objects, and scenes react to ``action.kind``.

To add a key binding, add the key to :data:`KEY_BINDINGS` (or :data:`CTRL_BINDINGS`
for Ctrl+key) with an :class:`Act`, then handle that act in a scene, e.g. in the play
scene ``scene.bindings[Act.HINT] = my_handler``.  Unknown acts are ignored by scenes.

>>> import pygame
>>> [a.kind.value for a in translate(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" "))]
['toggle_run', 'text']
>>> translate(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_z, mod=pygame.KMOD_CTRL, unicode=""))[0].kind
<Act.UNDO: 'undo'>
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

import pygame


class Act(str, enum.Enum):
    """What the player asked for, independent of the key or button used."""

    QUIT = "quit"
    BACK = "back"                  #: Esc
    CONFIRM = "confirm"            #: Enter
    TOGGLE_RUN = "toggle_run"      #: Space: release / pause / resume
    LEFT = "left"                  #: Left arrow (play: step back)
    RIGHT = "right"                #: Right arrow (play: step forward)
    UP = "up"
    DOWN = "down"
    SPEED_UP = "speed_up"          #: + / =
    SPEED_DOWN = "speed_down"      #: -
    RESTART = "restart"            #: R
    CLEAR = "clear"                #: Backspace
    DELETE = "delete"              #: Delete (text entry: the character after the cursor)
    UNDO = "undo"                  #: Z, Ctrl+Z
    REDO = "redo"                  #: Y, Ctrl+Y, Ctrl+Shift+Z
    PREVIEW = "preview"            #: P
    CLICK = "click"                #: left mouse button (pos)
    RIGHT_CLICK = "right_click"    #: right mouse button (pos)
    HOVER = "hover"                #: mouse motion (pos; value = 1 while the left button is held)
    MOUSE_UP = "mouse_up"          #: left mouse button released (pos)
    SCROLL = "scroll"              #: mouse wheel (value = +1 up / -1 down)
    RESIZE = "resize"              #: window resized (size)
    SCREENSHOT = "screenshot"      #: F12
    MUTE = "mute"                  #: M: sound on/off (anywhere)
    HELP = "help"                  #: F1: every key (anywhere)
    PLACE = "place"                #: B (and Enter while placing): place/remove a brick on the cursor cell
    STEP_BACK = "step_back"        #: , (comma): one frame back, in every state
    STEP_FORWARD = "step_forward"  #: . (period): one frame forward, in every state
    RULER = "ruler"                #: N: row/column numbers around the board
    FIRST_FRAME = "first_frame"    #: Home: the timeline's first frame
    LAST_FRAME = "last_frame"      #: End: the timeline's last frame
    # Reserved for the assistant and the editor: mapped here, handled there.
    HINT = "hint"                  #: H
    SOLVE = "solve"                #: S
    ALL_SOLUTIONS = "all_solutions"  #: A
    CYCLE_SOLVER = "cycle_solver"  #: Tab
    FORCED = "forced"              #: F
    EXPORT_GIF = "export_gif"      #: G
    PREV_ITEM = "prev_item"        #: [
    NEXT_ITEM = "next_item"        #: ]
    TOOL = "tool"                  #: digit keys 0-9 (value = the digit)
    SAVE = "save"                  #: Ctrl+S
    OPEN = "open"                  #: Ctrl+O
    COPY = "copy"                  #: Ctrl+C
    PASTE = "paste"                #: Ctrl+V
    SELECT_ALL = "select_all"      #: Ctrl+A (text entry; sent besides what A does)
    TEXT = "text"                  #: any printable character typed (text = the character)


@dataclass(frozen=True)
class Action:
    """One game action: ``kind`` plus the details some kinds carry.

    ``pos`` (mouse actions), ``size`` (resize), ``value`` (scroll, tool digit),
    ``text`` (typed character), ``key``/``mod`` (the raw key, for text entry).
    """

    kind: Act
    pos: tuple[int, int] | None = None
    size: tuple[int, int] | None = None
    value: int = 0
    text: str = ""
    key: int = 0
    mod: int = 0


#: Plain key -> act (also used when Ctrl is held, unless :data:`CTRL_BINDINGS` says otherwise).
KEY_BINDINGS: dict[int, Act] = {
    pygame.K_ESCAPE: Act.BACK,
    pygame.K_RETURN: Act.CONFIRM,
    pygame.K_KP_ENTER: Act.CONFIRM,
    pygame.K_SPACE: Act.TOGGLE_RUN,
    pygame.K_LEFT: Act.LEFT,
    pygame.K_RIGHT: Act.RIGHT,
    pygame.K_UP: Act.UP,
    pygame.K_DOWN: Act.DOWN,
    pygame.K_PLUS: Act.SPEED_UP,
    pygame.K_EQUALS: Act.SPEED_UP,
    pygame.K_KP_PLUS: Act.SPEED_UP,
    pygame.K_MINUS: Act.SPEED_DOWN,
    pygame.K_KP_MINUS: Act.SPEED_DOWN,
    pygame.K_r: Act.RESTART,
    pygame.K_BACKSPACE: Act.CLEAR,
    pygame.K_DELETE: Act.DELETE,
    pygame.K_z: Act.UNDO,
    pygame.K_y: Act.REDO,
    pygame.K_p: Act.PREVIEW,
    pygame.K_F12: Act.SCREENSHOT,
    pygame.K_m: Act.MUTE,
    pygame.K_F1: Act.HELP,
    pygame.K_b: Act.PLACE,
    pygame.K_COMMA: Act.STEP_BACK,
    pygame.K_PERIOD: Act.STEP_FORWARD,
    pygame.K_n: Act.RULER,
    pygame.K_HOME: Act.FIRST_FRAME,
    pygame.K_END: Act.LAST_FRAME,
    pygame.K_h: Act.HINT,
    pygame.K_s: Act.SOLVE,
    pygame.K_a: Act.ALL_SOLUTIONS,
    pygame.K_TAB: Act.CYCLE_SOLVER,
    pygame.K_f: Act.FORCED,
    pygame.K_g: Act.EXPORT_GIF,
    pygame.K_LEFTBRACKET: Act.PREV_ITEM,
    pygame.K_RIGHTBRACKET: Act.NEXT_ITEM,
}

#: The bindings as shipped (:func:`rebind` starts from these).
DEFAULT_KEY_BINDINGS: dict[int, Act] = dict(KEY_BINDINGS)
#: Footer label of a default key -> the key the player bound instead (e.g. ``{"H": "J"}``).
KEY_LABELS: dict[str, str] = {}


#: The keys a rebinding may use (the settings' ``KEY_NAMES``) -> pygame key codes.
KEY_CODES: dict[str, int] = {
    **{ch: getattr(pygame, f"K_{ch}") for ch in "abcdefghijklmnopqrstuvwxyz"},
    ",": pygame.K_COMMA, ".": pygame.K_PERIOD, "/": pygame.K_SLASH, ";": pygame.K_SEMICOLON,
    "'": pygame.K_QUOTE, "[": pygame.K_LEFTBRACKET, "]": pygame.K_RIGHTBRACKET, "`": pygame.K_BACKQUOTE,
    "tab": pygame.K_TAB,
}
#: pygame key code -> key name (the inverse of :data:`KEY_CODES`).
KEY_NAMES_OF: dict[int, str] = {code: name for name, code in KEY_CODES.items()}


def key_label(name: str) -> str:
    """How a key name reads in the footer: ``h`` -> ``H``, ``tab`` -> ``Tab``."""
    return name.upper() if len(name) == 1 else name.capitalize()


def rebind(keys: dict[str, str]) -> None:
    """Apply the player's key map (action name -> pygame key name, from the settings): every action
    listed moves to its key; the default keys of the others stay.

    >>> rebind({"hint": "j"}); KEY_BINDINGS[pygame.K_j], pygame.K_h in KEY_BINDINGS, display_key("H/S")
    (<Act.HINT: 'hint'>, False, 'J/S')
    >>> display_key("H / S"), display_key("Enter or H"), display_key("Shift+H")
    ('J / S', 'Enter or J', 'Shift+H')
    >>> rebind({"cycle_solver": "q", "step_back": "u"}); display_key("Tab, [ / ]"), display_key(", / .")
    ('Q, [ / ]', 'U / .')
    >>> rebind({}); KEY_BINDINGS[pygame.K_h]
    <Act.HINT: 'hint'>
    """
    KEY_BINDINGS.clear()
    KEY_BINDINGS.update(DEFAULT_KEY_BINDINGS)
    KEY_LABELS.clear()
    defaults = {act: key for key, act in DEFAULT_KEY_BINDINGS.items()}
    moved: dict[int, Act] = {}
    for name, key_name in keys.items():
        try:
            act, code = Act(name), KEY_CODES[key_name]
        except (ValueError, KeyError):
            continue
        old = defaults.get(act)
        if old is not None and old != code:
            KEY_BINDINGS.pop(old, None)
            KEY_LABELS[key_label(KEY_NAMES_OF.get(old, "?"))] = key_label(key_name)
        moved[code] = act
    KEY_BINDINGS.update(moved)


#: What separates the keys of one label: ``Z/Y``, ``Z / Y``, ``Enter or B``, ``, and .``, ``[ ]``, ``Tab, [ / ]``
#: (a comma after a key and before a space; a comma key stands alone).
_KEY_SEPARATORS = re.compile(r"(\s*/\s*|\s+or\s+|\s+and\s+|(?<=\S),\s+|\s+)")


def display_key(label: str) -> str:
    """A key label (the footer's, the help's) with the player's rebindings applied (``"Z/Y"`` -> ``"U/Y"``
    if Z moved to U; ``"Enter or B"`` -> ``"Enter or K"`` if B moved to K)."""
    if not KEY_LABELS:
        return label
    parts = _KEY_SEPARATORS.split(label)
    return "".join(part if i % 2 else KEY_LABELS.get(part, part) for i, part in enumerate(parts))


#: Ctrl+key -> act (checked first when Ctrl is held).
CTRL_BINDINGS: dict[int, Act] = {
    pygame.K_z: Act.UNDO,
    pygame.K_y: Act.REDO,
    pygame.K_s: Act.SAVE,
    pygame.K_o: Act.OPEN,
    pygame.K_q: Act.QUIT,
    pygame.K_c: Act.COPY,
    pygame.K_v: Act.PASTE,
}

_DIGITS = {getattr(pygame, f"K_{d}"): d for d in range(10)}
_DIGITS.update({getattr(pygame, f"K_KP{d}"): d for d in range(10)})


def translate(event: pygame.event.Event) -> list[Action]:
    """The actions one pygame event stands for (often none)."""
    etype = event.type
    if etype == pygame.QUIT:
        return [Action(Act.QUIT)]
    if etype == pygame.KEYDOWN:
        return _key_actions(event)
    if etype == pygame.MOUSEBUTTONDOWN:
        pos = tuple(event.pos)
        if event.button == 1:
            return [Action(Act.CLICK, pos=pos)]
        if event.button == 3:
            return [Action(Act.RIGHT_CLICK, pos=pos)]
        return []
    if etype == pygame.MOUSEBUTTONUP:
        return [Action(Act.MOUSE_UP, pos=tuple(event.pos))] if event.button == 1 else []
    if etype == pygame.MOUSEMOTION:
        held = bool(getattr(event, "buttons", (0,))[0])
        return [Action(Act.HOVER, pos=tuple(event.pos), value=int(held))]
    if etype == pygame.MOUSEWHEEL:
        return [Action(Act.SCROLL, value=1 if event.y > 0 else -1)] if event.y else []
    if etype == pygame.VIDEORESIZE:
        return [Action(Act.RESIZE, size=(int(event.w), int(event.h)))]
    return []


def _key_actions(event: pygame.event.Event) -> list[Action]:
    key = int(event.key)
    mod = int(getattr(event, "mod", 0))
    text = str(getattr(event, "unicode", "") or "")
    ctrl = bool(mod & pygame.KMOD_CTRL)
    shift = bool(mod & pygame.KMOD_SHIFT)
    out: list[Action] = []
    act: Act | None
    if ctrl:
        act = CTRL_BINDINGS.get(key)
        if key == pygame.K_z and shift:
            act = Act.REDO
        if act is None:
            act = KEY_BINDINGS.get(key)
    else:
        act = KEY_BINDINGS.get(key)
    if act is not None:
        out.append(Action(act, key=key, mod=mod, text=text))
    if ctrl and key == pygame.K_a:
        out.append(Action(Act.SELECT_ALL, key=key, mod=mod))
    if not ctrl and key in _DIGITS:
        out.append(Action(Act.TOOL, value=_DIGITS[key], key=key, mod=mod, text=text))
    if not ctrl and text and text.isprintable():
        out.append(Action(Act.TEXT, text=text, key=key, mod=mod))
    return out


def mouse_held(button: int) -> bool:
    """Whether mouse button ``button`` (0 left, 1 middle, 2 right) is held now (False without a display)."""
    return bool(pygame.mouse.get_pressed(3)[button]) if pygame.display.get_init() else False
