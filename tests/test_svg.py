"""SVG pictures: valid XML, the right cards face up, the right backs, seats, matches, PNGs,
and labels that do not run into each other."""

from __future__ import annotations

import io
import itertools
import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa import (
    DECK,
    AbandonReason,
    Card,
    GameState,
    InvalidArgumentError,
    Leftovers,
    Match,
    Rules,
    find_variant,
    view,
)
from scopa._scene import scene
from scopa.match import match_moments
from scopa.svg import _text_width, card_svg, cards_svg, match_svg, state_svg
from tests.helpers import CARD_CODE, card_list
from tests.strategies import any_rules, states

SVG = "{http://www.w3.org/2000/svg}"

FAMILY = [find_variant(name) for name in ("classic", "scopa-3", "scopa-4", "scopone", "scopa-6")]
family = pytest.mark.parametrize("rules", FAMILY, ids=[r.name for r in FAMILY])


def parse(svg: str) -> ET.Element:
    """Parse a picture and check what every picture must have."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert float(root.attrib["width"]) > 0
    assert float(root.attrib["height"]) > 0
    assert len(root.attrib["viewBox"].split()) == 4
    assert root[0].tag == f"{SVG}title"
    assert root[0].text
    for element in root.iter():
        assert "id" not in element.attrib
        assert not any("href" in name for name in element.attrib)
        assert element.tag != f"{SVG}image"
    assert "url(" not in svg
    for card in drawn_cards(root):
        assert card[0].tag == f"{SVG}title"
        assert card[0].text
    return root


def drawn_cards(root: ET.Element, **data: object) -> list[ET.Element]:
    """The drawn cards whose data attributes have the given values."""
    found = []
    for element in root.iter(f"{SVG}g"):
        if "card" not in element.attrib.get("class", "").split():
            continue
        if all(element.attrib.get(f"data-{k}") == str(v) for k, v in data.items()):
            found.append(element)
    return found


def codes(elements: list[ET.Element]) -> Counter[str]:
    return Counter(element.attrib["data-card"] for element in elements)


def names(cards: frozenset[Card] | tuple[Card, ...]) -> Counter[str]:
    return Counter(map(str, cards))


def one(root: ET.Element, kind: str, **data: object) -> ET.Element:
    found = [
        element
        for element in root.iter(f"{SVG}g")
        if element.attrib.get("class") == kind
        and all(element.attrib.get(f"data-{k}") == str(v) for k, v in data.items())
    ]
    assert len(found) == 1, (kind, data, len(found))
    return found[0]


def play(state: GameState, plays: int) -> GameState:
    """Play up to `plays` moves, capturing when possible (so scope happen)."""
    for _ in range(plays):
        if state.is_terminal:
            break
        moves = state.legal_moves()
        captures = [m for m in moves if m.is_capture]
        state = state.apply((captures or moves)[-1])
    return state


def check_position(state: GameState, player: int | None, svg: str) -> ET.Element:
    """The picture of `state` for `player` shows exactly what it should.

    A hand seen face down shows face up the cards its player's declaration showed.
    """
    root = parse(svg)
    rules = state.rules
    shown = set(range(rules.players)) if player is None else {player}
    declared = view(state, 0).revealed
    face_up = drawn_cards(root, face="up")
    expected = names(state.table) + sum((names(state.hands[p]) for p in shown), Counter())
    expected += sum((names(declared[p]) for p in range(rules.players) if p not in shown), Counter())
    assert codes(face_up) == expected
    assert codes(drawn_cards(root, where="table")) == names(state.table)
    for p in range(rules.players):
        held = drawn_cards(root, where="hand", player=p)
        assert len(held) == len(state.hands[p])
        if p in shown:
            assert codes(held) == names(state.hands[p])
        else:
            down = [c for c in held if c.attrib["data-face"] == "down"]
            assert len(down) == len(state.hands[p]) - len(declared[p])
            assert all("data-card" not in c.attrib for c in down)
            assert codes(drawn_cards(root, where="hand", player=p, face="up")) == names(declared[p])
        pile = one(root, "pile", player=p)
        assert pile.attrib["data-cards"] == str(len(state.piles[p]))
        assert pile.attrib["data-scope"] == str(state.scope[p])
    backs = drawn_cards(root, face="down")
    assert len(backs) == sum(
        len(state.hands[p]) - len(declared[p]) for p in range(rules.players) if p not in shown
    )
    if rules.deals_per_hand > 1:
        assert one(root, "stock").attrib["data-cards"] == str(len(state.stock))
    seats = [one(root, "seat", player=p) for p in range(rules.players)]
    dealers = [s for s in seats if any(g.attrib.get("class") == "dealer" for g in s.iter())]
    assert [s.attrib["data-player"] for s in dealers] == [str(state.dealer)]
    turns = [s for s in seats if any(g.attrib.get("class") == "turn" for g in s.iter())]
    expected_turn = [] if state.current_player is None else [str(state.current_player)]
    assert [s.attrib["data-player"] for s in turns] == expected_turn
    return root


def test_a_fresh_deal_for_one_player() -> None:
    state = GameState.new(find_variant("classic"), seed=1)
    root = check_position(state, 0, state_svg(state, 0))
    assert len(drawn_cards(root, face="up")) == 4 + 3
    assert len(drawn_cards(root, where="hand", player=1, face="down")) == 3
    assert root.attrib["data-shown"] == "0"
    assert root[0].text is not None
    assert "player 1 to play" in root[0].text


@family
@pytest.mark.parametrize("plays", [0, 5, 13, 40])
def test_every_seat_and_the_analysis_view(rules: Rules, plays: int) -> None:
    state = play(GameState.new(rules, seed=plays + 3, dealer=plays % rules.players), plays)
    for player in [None, *range(rules.players)]:
        root = check_position(state, player, state_svg(state, player))
        bottom = 0 if player is None else player
        seats = [g.attrib["data-player"] for g in root.iter(f"{SVG}g") if g.get("class") == "seat"]
        players = rules.players
        assert seats == [str((bottom + k) % players) for k in range(players)]


@family
def test_the_end_of_a_hand_shows_its_score(rules: Rules) -> None:
    state = play(GameState.new(rules, seed=5), 40)
    assert state.is_terminal
    root = check_position(state, None, state_svg(state))
    score = one(root, "score")
    assert score.attrib["data-points"] == ",".join(map(str, state.hand_score().points))
    assert root[0].text is not None
    assert "hand over" in root[0].text


def test_leftovers_that_stay_on_the_table_are_drawn_with_the_score() -> None:
    rules = attrs.evolve(find_variant("classic"), leftovers=Leftovers.NOBODY)
    for seed in range(50):
        state = play(GameState.new(rules, seed=seed), 36)
        if state.table:
            break
    assert state.is_terminal
    assert state.table
    root = check_position(state, None, state_svg(state))
    one(root, "score")


@settings(max_examples=25)
@given(state=states(any_rules), data=st.data())
def test_any_reachable_position(state: GameState, data: st.DataObject) -> None:
    player = data.draw(st.none() | st.integers(0, state.rules.players - 1))
    check_position(state, player, state_svg(state, player))


@settings(max_examples=25)
@given(state=states(any_rules), data=st.data())
def test_no_hidden_card_is_written_anywhere(state: GameState, data: st.DataObject) -> None:
    player = data.draw(st.integers(0, state.rules.players - 1))
    public = {*state.hands[player], *state.table, *(c for p in state.piles for c in p)}
    played = {c for _, move in state.history for c in (move.card, *move.captured)}
    svg = state_svg(state, player)
    written = {Card.parse(code) for code in CARD_CODE.findall(svg)}
    declared = set().union(*view(state, player).revealed)
    assert written <= public | played | declared
    hidden = set().union(*(h for p, h in enumerate(state.hands) if p != player), state.stock)
    assert not written & (hidden - declared)


@settings(max_examples=25)
@given(state=states(any_rules), data=st.data())
def test_a_view_draws_the_same_picture_as_its_state(state: GameState, data: st.DataObject) -> None:
    player = data.draw(st.integers(0, state.rules.players - 1))
    assert state_svg(view(state, player)) == state_svg(state, player)
    assert state_svg(view(state, player), player) == state_svg(state, player)


def test_player_must_be_a_player_of_the_picture() -> None:
    state = GameState.new(find_variant("classic"), seed=2)
    for wrong in (2, -1):
        with pytest.raises(InvalidArgumentError):
            state_svg(state, wrong)
    for wrong_type in (True, 1.0):
        with pytest.raises(TypeError, match="player must be an int"):
            state_svg(state, wrong_type)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError):
        state_svg(view(state, 0), 1)


@pytest.mark.parametrize("players", range(2, 9))
def test_seats_and_table_do_not_overlap(players: int) -> None:
    hand_size, table_size = {2: (3, 4), 3: (3, 4), 4: (3, 4), 5: (4, 0), 6: (3, 4)}.get(
        players, (5, 40 % (5 * players))
    )
    rules = Rules(players=players, hand_size=hand_size, table_size=table_size)
    state = play(GameState.new(rules, seed=players), players + 1)
    root = check_position(state, None, state_svg(state))
    _, _, width, height = map(float, root.attrib["viewBox"].split())
    boxes = []
    for group in root.iter(f"{SVG}g"):
        if group.get("class") in ("seat", "table"):
            rect = next(group.iter(f"{SVG}rect"))
            x, y = float(rect.attrib["x"]), float(rect.attrib["y"])
            w, h = float(rect.attrib["width"]), float(rect.attrib["height"])
            assert x >= 0
            assert y >= 0
            assert x + w <= width
            assert y + h <= height
            boxes.append((x, y, x + w, y + h))
    assert len(boxes) == players + 1
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


def test_more_than_eight_players_are_not_drawn() -> None:
    state = GameState.new(Rules(players=10, hand_size=2, table_size=0), seed=1)
    with pytest.raises(ValueError, match="2 to 8 players"):
        state_svg(state)


def test_width_scales_the_picture() -> None:
    state = GameState.new(find_variant("scopa-4"), seed=1)
    natural = parse(state_svg(state))
    small = parse(state_svg(state, width=600))
    assert natural.attrib["viewBox"] == small.attrib["viewBox"]
    assert float(small.attrib["width"]) == 600
    ratio = float(natural.attrib["height"]) / float(natural.attrib["width"])
    assert float(small.attrib["height"]) == pytest.approx(600 * ratio)


def test_a_caption_is_shown_and_titled() -> None:
    state = GameState.new(find_variant("classic"), seed=1)
    root = parse(state_svg(state, caption="Hand 1 & <all>"))
    assert root[0].text is not None
    assert root[0].text.startswith("Hand 1 & <all>. ")
    assert any(t.text == "Hand 1 & <all>" for t in root.iter(f"{SVG}text"))


# --------------------------------------------------------------------------- cards


@pytest.mark.parametrize("card", DECK, ids=str)
def test_each_card_alone(card: Card) -> None:
    root = parse(card_svg(card))
    drawn = drawn_cards(root)
    assert codes(drawn) == Counter([str(card)])
    assert drawn[0][0].text is not None
    assert drawn[0][0].text.startswith(f"{card} ")
    assert root.attrib["viewBox"] == "0 0 60 100"


def test_card_names() -> None:
    def title(text: str, lang: str = "en") -> str | None:
        return drawn_cards(parse(card_svg(Card.parse(text), lang=lang)))[0][0].text

    # English names the suits and the Ace's and figures' ranks as the rules page does
    assert title("7D") == "7D 7 of denari (settebello)"
    assert title("10D") == "10D Re of denari (re bello)"
    assert title("1B") == "1B Ace of bastoni"
    assert title("8C") == "8C Fante of coppe"
    # Italian as the players say it; the settebello and the re bello keep their names
    assert title("7D", "it") == "7D sette di denari (settebello)"
    assert title("10D", "it") == "10D re di denari (re bello)"
    assert title("1B", "it") == "1B asso di bastoni"
    assert title("8C", "it") == "8C fante di coppe"
    assert title("9S", "it") == "9S cavallo di spade"
    assert title("2S", "it") == "2S due di spade"


def test_a_card_back() -> None:
    root = parse(card_svg(None, width=45))
    (back,) = drawn_cards(root)
    assert back.attrib["data-face"] == "down"
    assert "data-card" not in back.attrib
    assert float(root.attrib["height"]) == pytest.approx(75)


def test_a_sheet_of_the_whole_deck() -> None:
    root = parse(cards_svg())
    assert [c.attrib["data-card"] for c in drawn_cards(root)] == [str(c) for c in DECK]
    assert root.attrib["viewBox"] == "0 0 688 440"
    some = parse(cards_svg(DECK[:3], columns=2))
    assert codes(drawn_cards(some)) == names(DECK[:3])
    assert parse(cards_svg([])) is not None
    with pytest.raises(ValueError, match="columns"):
        cards_svg(columns=0)


# --------------------------------------------------------------------------- matches


def play_match(match: Match, hands: int | None = None) -> Match:
    while not match.is_over and (hands is None or len(match.hands) < hands):
        moves = match.state.legal_moves()
        captures = [m for m in moves if m.is_capture]
        match = match.apply((captures or moves)[-1])
    return match


@pytest.mark.parametrize("name", ["classic", "scopa-4", "tretre"])
def test_a_picture_for_each_key_moment_of_a_match(name: str) -> None:
    match = play_match(Match.new(find_variant(name), seed=11))
    moments = match_moments(match)
    assert sum(m.kind == "scopa" for m in moments) > 0
    pictures = match_svg(match)
    assert len(pictures) == len(moments)
    for moment, picture in zip(moments, pictures, strict=True):
        root = check_position(moment.state, None, picture)
        assert root[0].text is not None
        assert root[0].text.startswith(moment.caption)


def test_a_match_in_progress_and_abandoned_is_drawn() -> None:
    match = play_match(Match.new(find_variant("classic"), seed=4), hands=1)
    for _ in range(7):
        match = match.apply(match.state.legal_moves()[0])
    gone = match.abandon(1, AbandonReason.TIMEOUT)
    pictures = match_svg(gone, 0)
    assert len(pictures) == len(match_moments(gone))
    for picture in pictures:
        parse(picture)
    assert "player 1 abandons (timeout)" in pictures[-1]


def test_a_match_picture_needs_a_match_and_a_player() -> None:
    match = Match.new(find_variant("classic"), seed=1)
    with pytest.raises(TypeError, match="need a Match, not GameState"):
        match_svg(match.state)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="from 0 to 1, not 2"):
        match_svg(match, 2)
    with pytest.raises(TypeError, match="player must be an int, not bool"):
        match_svg(match, True)


def test_bad_widths_cards_and_columns() -> None:
    state = GameState.new(find_variant("classic"), seed=1)
    seven = Card.parse("7D")
    for width in (0, -90, float("nan"), float("inf")):
        with pytest.raises(InvalidArgumentError, match="width must be a finite, positive"):
            card_svg(seven, width=width)
        with pytest.raises(InvalidArgumentError, match="width must be a finite, positive"):
            state_svg(state, width=width)
    for wrong_width in (True, "90"):
        with pytest.raises(TypeError, match="width must be a number of pixels"):
            cards_svg(width=wrong_width)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Card or None, not str"):
        card_svg("7D")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Card objects, not str"):
        cards_svg([seven, "7C"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="columns must be an int, not bool"):
        cards_svg(columns=True)
    with pytest.raises(TypeError, match="GameState or a PlayerView, not Card"):
        state_svg(seven)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- PNG


def test_the_pictures_render_to_images(tmp_path: Path) -> None:
    try:
        import cairosvg  # type: ignore[import-untyped]  # needs the system cairo library
    except (ImportError, OSError):
        pytest.skip("cairosvg and the cairo library are needed to render PNG")
    image = pytest.importorskip("PIL.Image")
    state = play(GameState.new(find_variant("classic"), seed=5), 9)
    pictures = {
        "two.png": state_svg(state, 0),
        "four.png": state_svg(play(GameState.new(find_variant("scopone"), seed=3), 7), 1),
        "deck.png": cards_svg(),
    }
    for name, svg in pictures.items():
        png = cairosvg.svg2png(bytestring=svg.encode())
        (tmp_path / name).write_bytes(png)
        with image.open(io.BytesIO(png)) as picture:
            rgb = picture.convert("RGB")
            assert rgb.width > 500
            assert rgb.height > 300
            colours = rgb.getcolors(maxcolors=1 << 20)
            assert colours is not None
            assert len(colours) > 50
            largest = max(count for count, _ in colours)
            assert largest < 0.8 * rgb.width * rgb.height


def test_cards_shown_by_a_declaration_are_face_up_with_the_points() -> None:
    # cirulla, dealer 0: player 1 held 2C 4C 3B (9: a busso, 3 points) and laid 3B down
    rules = find_variant("cirulla")
    used = card_list("5D 6D 7S 2C 4C 3B 5S 8C 9S 10C")
    state = GameState.from_position(
        rules,
        hands=[used[0:3], used[3:5]],
        table=used[5:],
        stock=[c for c in DECK if c not in used],
        dealer=0,
        declared=[0, 3],
        revealed=[[], used[3:5]],
    )
    root = check_position(state, 0, state_svg(state, 0))
    held = drawn_cards(root, where="hand", player=1)
    assert codes(held) == Counter(["2C", "4C"])
    assert all(card.attrib["data-shown"] == "yes" for card in held)
    assert not drawn_cards(root, where="hand", player=0, shown="yes")
    points = [g.attrib["data-points"] for g in root.iter(f"{SVG}g") if g.get("class") == "declared"]
    assert points == ["0", "3"]  # seat by seat from the bottom: you, then player 1
    assert "declared 3 points · shows 2C 4C" in state_svg(state, 0)
    assert root[0].text is not None
    assert "player 1 has shown 2C 4C" in root[0].text


def test_a_cirulla_match_with_declarations_is_drawn() -> None:
    rules = find_variant("cirulla")
    match = Match.new(rules, seed=3)
    declared = 0
    while not match.is_over:
        legal = match.state.legal_moves()
        move = legal[-1]  # the last form of a play declares when a declaration is allowed
        declared += move.declaration is not None
        match = match.apply(move)
    assert declared > 0
    pictures = match_svg(match)
    assert len(pictures) == len(match_moments(match))
    for picture in pictures:
        parse(picture)


def test_pictures_show_cards_in_the_standard_order() -> None:
    # Seed 4 deals the table 1D 3C 6C 5S: by rank it would be 1D 3C 5S 6C.
    state = GameState.new(find_variant("classic"), seed=4)
    shown = scene(state)
    assert [str(card) for card in shown.table] == ["1D", "3C", "6C", "5S"]
    assert shown.hands[0] == (Card.parse("10D"), Card.parse("4C"), Card.parse("2S"))
    assert scene(state, 1).hands[1] == tuple(sorted(state.hands[1]))


# --------------------------------------------------------------------------- in Italian


def texts(root: ET.Element) -> list[str]:
    """The words drawn in a picture, in drawing order."""
    return [element.text or "" for element in root.iter(f"{SVG}text")]


def titles(root: ET.Element) -> list[str]:
    return [element.text or "" for element in root.iter(f"{SVG}title")]


def test_a_position_in_italian() -> None:
    # seed 1: player 0 deals, player 1 leads; seen from player 0's seat
    state = GameState.new(find_variant("classic"), seed=1)
    root = check_position(state, 0, state_svg(state, 0, lang="it"))
    words = texts(root)
    assert words[0] == "classic · 2 giocatori · distribuzione 1 di 6, di turno il giocatore 1"
    assert "nessuna giocata" in words
    assert {"mazzo", "Giocatore 0 (tu)", "Giocatore 1", "M", "di turno", "0 carte"} <= set(words)
    named = titles(root)
    assert named[0].startswith("Posizione di Scopa, classic, 2 giocatori: distribuzione 1 di 6")
    assert "il giocatore 0 è il mazziere" in named
    assert "di turno il giocatore 1" in named
    assert "mazzo: 30 carte" in named
    assert "prese del giocatore 0: 0 carte, 0 scope" in named
    assert "una carta coperta" in named
    for card in state.hands[0] | state.table:
        assert f"{card} {card.name('it')}" in {t.removesuffix(" (settebello)") for t in named}
    english = texts(check_position(state, 0, state_svg(state, 0)))
    assert english[0] == "classic · 2 players · deal 1 of 6, player 1 to play"
    assert {"stock", "Player 0 (you)", "D", "to play"} <= set(english)


def test_the_key_moments_of_a_match_in_italian() -> None:
    match = play_match(Match.new(find_variant("scopa-4"), seed=11), hands=1)
    gone = match.abandon(1, AbandonReason.TIMEOUT)
    moments = match_moments(gone)
    pictures = match_svg(gone, lang="it")
    captions = [texts(parse(picture))[1] for picture in pictures]
    assert gone.first_dealer == 0
    assert captions[0] == "Smazzata 1: distribuisce il giocatore 0 · partita 0–0"
    for moment, caption in zip(moments, captions, strict=True):
        if moment.kind == "scopa":
            player = moment.state.history[-1][0]
            side = "AB"[player % 2]
            assert caption == f"Smazzata 1: scopa del giocatore {player} (squadra {side})"
    first = gone.hands[0].points
    ended = [c for m, c in zip(moments, captions, strict=True) if m.kind == "end"]
    totals = f"{first[0]}–{first[1]}"
    assert ended == [f"Smazzata 1 finita: punti {totals} · partita {totals}"]
    assert captions[-1] == "Smazzata 2: il giocatore 1 abbandona (tempo scaduto)"
    # in English the captions are the moments' own
    english = [texts(parse(picture))[1] for picture in match_svg(gone)]
    assert english == [moment.caption for moment in moments]


def test_sheets_of_cards_count_them_in_either_language() -> None:
    seven = [Card.parse("7D")]
    assert titles(parse(cards_svg(seven)))[0] == "1 card: 7D"
    assert titles(parse(cards_svg(seven, lang="it")))[0] == "1 carta: 7D"
    assert titles(parse(cards_svg(lang="it")))[0].startswith("40 carte: 1D 2D 3D")
    assert titles(parse(cards_svg([])))[0] == "0 cards: none"
    assert titles(parse(card_svg(None, lang="it")))[0] == "una carta coperta"
    with pytest.raises(InvalidArgumentError, match="the languages are en, it"):
        card_svg(None, lang="es")


# --------------------------------------------------------------------------- labels


@attrs.frozen
class Label:
    """A text drawn outside the cards: its words, its font, and the box it takes."""

    text: str
    size: float
    bold: bool
    italic: bool
    box: tuple[float, float, float, float]  # left, top, right, bottom, in the picture's units


def labels(svg: str) -> Iterator[Label]:
    """Each text of a picture but the cards' own, with the box its width estimate gives.

    The box spans the text's estimated width from its anchor, and 0.76 of its size above
    the baseline (the capitals' height and the ascenders) to 0.24 below (the descenders),
    through the `translate(x y) scale(s)` of the groups that hold it.
    """

    def walk(
        element: ET.Element, at: tuple[float, float, float], font: dict[str, str]
    ) -> Iterator[Label]:
        if element.get("class", "").split()[:1] == ["card"]:
            return
        x0, y0, scale = at
        moved = element.get("transform")
        if moved is not None:
            found = re.fullmatch(r"translate\(([-\d.]+) ([-\d.]+)\)(?: scale\(([-\d.]+)\))?", moved)
            assert found is not None, moved
            dx, dy, by = float(found[1]), float(found[2]), float(found[3] or 1)
            x0, y0, scale = x0 + scale * dx, y0 + scale * dy, scale * by
        font = {
            **font,
            **{k: v for k, v in element.attrib.items() if k.startswith(("font-", "text-"))},
        }
        if element.tag == f"{SVG}text":
            text, size = element.text or "", float(font.get("font-size", 16))  # a browser's
            bold, italic = font.get("font-weight") == "bold", font.get("font-style") == "italic"
            width = _text_width(text, size, bold=bold)
            anchor = {"start": 0.0, "middle": 0.5, "end": 1.0}[font.get("text-anchor", "start")]
            left = float(element.attrib["x"]) - anchor * width
            baseline = float(element.attrib["y"])
            box = (left, baseline - 0.76 * size, left + width, baseline + 0.24 * size)
            placed = (
                x0 + scale * box[0],
                y0 + scale * box[1],
                x0 + scale * box[2],
                y0 + scale * box[3],
            )
            yield Label(text, size * scale, bold, italic, placed)
        for child in element:
            yield from walk(child, (x0, y0, scale), font)

    yield from walk(ET.fromstring(svg), (0.0, 0.0, 1.0), {})


def pictures_to_measure(lang: str) -> Iterator[str]:
    """Pictures of many sizes of game, early, midway and finished, and of a match."""
    presets = (
        "classic",
        "tretre",
        "scopa-3",
        "scopa-4",
        "scopone-scientifico",
        "scopa-6",
        "cirulla",
        "escoba",
        "asso-piglia-tutto-semplice",
    )
    for name in presets:
        rules = find_variant(name)
        for plays in (0, 13, 60):
            state = play(GameState.new(rules, seed=plays + 2, dealer=plays % rules.players), plays)
            for player in (None, rules.players - 1):
                yield state_svg(state, player, lang=lang)
    for players in range(2, 9):
        hand_size, table_size = {2: (3, 4), 3: (3, 4), 4: (3, 4), 5: (4, 0), 6: (3, 4)}.get(
            players, (5, 40 % (5 * players))
        )
        rules = Rules(players=players, hand_size=hand_size, table_size=table_size)
        yield state_svg(play(GameState.new(rules, seed=players), 60), lang=lang)
    match = play_match(Match.new(find_variant("scopa-4"), seed=11), hands=1)
    yield from match_svg(match.abandon(1, AbandonReason.TIMEOUT), lang=lang)


@pytest.mark.parametrize("lang", ["en", "it"])
def test_no_label_overlaps_another_or_leaves_the_picture(lang: str) -> None:
    # Measured by the widths' estimate, which the next test checks against the fonts: the
    # Italian words are the longer ("punteggio della smazzata" beside the column "G0").
    for svg in pictures_to_measure(lang):
        _, _, width, height = map(float, ET.fromstring(svg).attrib["viewBox"].split())
        drawn = list(labels(svg))
        for label in drawn:
            left, top, right, bottom = label.box
            assert left >= 0, label
            assert right <= width, label
            assert top >= 0, label
            assert bottom <= height, label
        for a, b in itertools.combinations(drawn, 2):
            apart = a.box[2] <= b.box[0] or b.box[2] <= a.box[0]
            assert apart or a.box[3] <= b.box[1] or b.box[3] <= a.box[1], (a.text, b.text)


def test_the_widths_estimate_is_at_least_the_drawn_width() -> None:
    # Every label of those pictures, in DejaVu Sans, the first font the pictures name.
    font = pytest.importorskip("PIL.ImageFont", reason="needs Pillow (cairosvg installs it)")
    faces = {}
    for bold, italic in itertools.product((False, True), repeat=2):
        style = {(False, False): "", (True, False): "-Bold", (False, True): "-Oblique"}.get(
            (bold, italic), "-BoldOblique"
        )
        try:
            faces[bold, italic] = font.truetype(f"DejaVuSans{style}.ttf", 100)
        except OSError:
            pytest.skip("needs the DejaVu Sans fonts (Debian: fonts-dejavu-core)")
    measured = 0
    for lang in ("en", "it"):
        for svg in pictures_to_measure(lang):
            for label in labels(svg):
                drawn = faces[label.bold, label.italic].getlength(label.text) * label.size / 100
                estimate = label.box[2] - label.box[0]
                assert estimate >= drawn, (label.text, estimate, drawn)
                measured += 1
    assert measured > 1000
