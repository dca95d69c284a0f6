"""KaisaKaavio 1.0's saved competition file (XML), read and written.

The shape follows KaisaKaavio's XmlSerializer output of its ``Kilpailu`` class (read from its public source,
iliip0/KaisaKaavio): a ``<Kilpailu>`` root with simple elements (Nimi, JarjestavaSeura, AlkamisAika,
TavoitePistemaara, KaavioTyyppi, SijoitustenMaaraytyminen, Sijoittaminen, ...), ``<Osallistujat>`` with one
``<Pelaaja Nimi Seura Sijoitettu Id/>`` per player and ``<Pelit>`` with one ``<Peli .../>`` per game whose
attributes are the game record of KAAVIO 7. Elements this project does not use are kept in
``Settings.extra``, a player's attributes it does not use (the fees) in ``Player.extra``, and AlkamisAika as
written (with its time and time-zone offset), so that a file read and written again keeps them.

A file is checked as it is read: every played game's score must read as a result (KAAVIO 7), so an imported
competition can always be shown, continued and written again; a file that fails names the game and the score.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from kaisa.competition.kaavio import Kaavio
from kaisa.competition.model import (
    MAX_TARGET,
    MIN_TARGET,
    CompetitionError,
    Game,
    GameState,
    KaavioType,
    Outcome,
    PlacingMode,
    Player,
    Seeding,
    Settings,
    read_result,
)

_STATE = {
    GameState.EMPTY: "Tyhja",
    GameState.READY: "ValmiinaAlkamaan",
    GameState.RUNNING: "Kaynnissa",
    GameState.PLAYED: "Pelattu",
}
_PLACING = {
    PlacingMode.POINTS: "VoittajaKierroksistaLoputPisteista",
    PlacingMode.FINALISTS: "KaksiParastaKierroksistaLoputPisteista",
    PlacingMode.TOP3_BY_ROUNDS: "KolmeParastaKierroksistaLoputPisteista",
    PlacingMode.CUP: "Cup",
}
_SEEDING = {
    Seeding.NONE: "EiSijoittamista",
    Seeding.EIGHT: "Sijoitetaan8Pelaajaa",
    Seeding.TWENTY_FOUR: "Sijoitetaan24Pelaajaa",
}
_KNOWN = {
    "Nimi",
    "JarjestavaSeura",
    "AlkamisAika",
    "TavoitePistemaara",
    "KaavioTyyppi",
    "SijoitustenMaaraytyminen",
    "Sijoittaminen",
    "PelaajiaEnintaan",
    "Osallistujat",
    "Pelit",
    "ArvontaSiemen",
    "KaisaPoydat",
    "KaisaOsallistumisMaksu",
}


_START = "AlkamisAika"
_PLAYER_KNOWN = ("Nimi", "Seura", "Sijoitettu", "Id")


def _bad(fi: str, en: str) -> CompetitionError:
    """A file that cannot be read as a KaisaKaavio competition: what is wrong, in Finnish and in English."""
    return CompetitionError(
        "bad_kaisakaavio_file",
        f"Tiedosto ei kelpaa KaisaKaavion kilpailutiedostoksi: {fi}.",
        f"The file is not a KaisaKaavio competition file: {en}.",
    )


def _int(text: str | None, default: int = 0) -> int:
    if text is None or text == "" or len(text) > 12:  # a 401-digit number is no count of anything here
        return default
    try:
        return int(text)
    except ValueError:
        return default


def _target(raw: str) -> int:
    """The target as written (60 when absent); text that is no target is refused naming it."""
    if not raw:
        return 60
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 3):
        raise _bad(
            f"pistetavoite {raw[:20]} ei ole luku {MIN_TARGET}–{MAX_TARGET}",
            f"the target {raw[:20]} is not a number {MIN_TARGET}-{MAX_TARGET}",
        )
    return int(raw)


def from_xml(data: str | bytes) -> Kaavio:
    """Read a KaisaKaavio file into a kaavio (draw numbers and games as saved)."""
    try:
        root = ET.fromstring(data)
    except ET.ParseError as e:
        line, column = e.position
        raise _bad(
            f"XML-rakenne on rikki tai tiedosto katkeaa rivillä {line}, sarakkeessa {column}",
            f"its XML is broken or the file ends early at line {line}, column {column}",
        ) from e
    if root.tag != "Kilpailu":
        raise _bad(
            f"päätason elementti on <{root.tag}>, kun sen pitää olla <Kilpailu>",
            f"its top element is <{root.tag}>, where it should be <Kilpailu>",
        )
    text = {c.tag: (c.text or "") for c in root if len(c) == 0}
    kind_text = text.get("KaavioTyyppi", KaavioType.DOUBLE.value)
    try:
        kind = KaavioType(kind_text)
    except ValueError as e:
        kinds = ", ".join(t.value for t in KaavioType)
        raise _bad(
            f"kaaviotyyppiä {kind_text} ei tunneta (tunnetut: {kinds})",
            f"the bracket type {kind_text} is unknown (known: {kinds})",
        ) from e
    placing = {v: k for k, v in _PLACING.items()}.get(text.get("SijoitustenMaaraytyminen", ""))
    if placing is None:
        placing = PlacingMode.TOP3_BY_ROUNDS if text.get("KilpailuOnViikkokisa") == "true" else PlacingMode.POINTS
    seeding = {v: k for k, v in _SEEDING.items()}.get(text.get("Sijoittaminen", ""), Seeding.NONE)
    extra = {k: v for k, v in text.items() if k not in _KNOWN}
    start = text.get(_START, "")
    if start[10:] not in ("", "T00:00:00"):
        extra[_START] = start  # the time and time-zone offset as written, e.g. 2024-11-22T00:00:00+02:00
    settings = Settings(
        name=text.get("Nimi", ""),
        date=text.get("AlkamisAika", "")[:10],
        club=text.get("JarjestavaSeura", ""),
        kind=kind,
        target=_target(text.get("TavoitePistemaara", "")),
        placing=placing,
        seeding=seeding,
        max_players=_int(text.get("PelaajiaEnintaan"), 128),
        tables=tuple(t for t in text.get("KaisaPoydat", "").split(",") if t),
        entry_fee=_int(text.get("KaisaOsallistumisMaksu")),
        extra=extra,
    )
    players = []
    for el in root.iterfind("Osallistujat/Pelaaja"):
        number = _int(el.get("Id"), -1)
        if number < 0:
            continue
        fees = tuple((k, v) for k, v in el.attrib.items() if k not in _PLAYER_KNOWN)
        seeded = el.get("Sijoitettu", "")
        if seeded and not seeded.isdigit():
            # a seeding written other than as a number (e.g. 3P) is kept as written; its number is the seed
            fees = (*fees, ("Sijoitettu", seeded))
        digits = "".join(c for c in seeded if c.isdigit())[:3]
        players.append(Player(number, el.get("Nimi", ""), el.get("Seura", ""), _int(digits), fees))
    numbers = {p.number for p in players}
    games = []
    for i, el in enumerate(root.iterfind("Pelit/Peli")):
        a = _int(el.get("PelaajaId1"), -1)
        b_text = el.get("PelaajaId2", "")
        b = None if b_text in ("", "-1") else _int(b_text, -1)
        if a not in numbers or (b is not None and b not in numbers):
            raise _bad(
                f"peli {i + 1} viittaa pelaajaan, jota ei ole osallistujissa",
                f"game {i + 1} names a player who is not among the participants",
            )
        state = {v: k for k, v in _STATE.items()}.get(el.get("Tilanne", "Tyhja"), GameState.EMPTY)
        if state == GameState.PLAYED and b is not None:
            _check_played(i + 1, el.get("Pisteet1", ""), el.get("Pisteet2", ""), settings.target)
        games.append(
            Game(
                number=i + 1,
                round=_int(el.get("Kierros")),
                round1=_int(el.get("KierrosPelaaja1")),
                round2=_int(el.get("KierrosPelaaja2")),
                player1=a,
                player2=b,
                points1=el.get("Pisteet1", ""),
                points2=el.get("Pisteet2", ""),
                state=state,
                table=el.get("Poyta", ""),
                innings=_int(el.get("Lyontivuoroja")),
                longest1=_int(el.get("PisinSarja1")),
                longest2=_int(el.get("PisinSarja2")),
                second1=_int(el.get("ToiseksiPisinSarja1")),
                second2=_int(el.get("ToiseksiPisinSarja2")),
                forfeit1=el.get("LuovutusPelaaja1", ""),
                forfeit2=el.get("LuovutusPelaaja2", ""),
                comment=el.get("HakuKommentti", ""),
                started=el.get("Alkoi", ""),
                ended=el.get("Paattyi", ""),
            )
        )
    kaavio = Kaavio(
        settings, sorted(players, key=lambda p: p.number), games, bool(games), _int(text.get("ArvontaSiemen"))
    )
    try:
        kaavio.check()  # the API's limits: players, names, the target
    except CompetitionError as e:
        raise _bad(
            e.fi.removeprefix("Kilpailu ei kelpaa: ").rstrip("."),
            e.en.removeprefix("The competition is not valid: ").rstrip("."),
        ) from e
    return kaavio


def _check_played(number: int, points1: str, points2: str, target: int) -> None:
    """A played game's score must read as a result (KAAVIO 7): a number 0-target with v or h, deciding it."""
    score = f"{points1}–{points2}"
    try:
        outcome = read_result(points1, points2, target)
    except CompetitionError as e:
        raise _bad(
            f"pelatun pelin {number} tulos {score} ei ole pistemäärä (luku 0–{target}, perässä tarvittaessa v tai h)",
            f"played game {number}'s score {points1}-{points2} is not a score (a number 0-{target}, optionally "
            "followed by v or h)",
        ) from e
    if not outcome.decided:
        why_fi = "molemmat voittaisivat" if outcome == Outcome.INVALID else "se ei ratkaise peliä"
        why_en = "both would win" if outcome == Outcome.INVALID else "it does not decide the game"
        raise _bad(
            f"pelatun pelin {number} tulos {score} ei kelpaa: {why_fi}",
            f"played game {number}'s score {points1}-{points2} is not a result: {why_en}",
        )


def _num(v: int) -> str:
    return str(v) if v else ""


def to_xml(k: Kaavio) -> str:
    """Write a kaavio as KaisaKaavio 1.0 saves it."""
    s = k.settings
    root = ET.Element(
        "Kilpailu",
        {
            "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
            "xmlns:xsd": "http://www.w3.org/2001/XMLSchema",
        },
    )

    def el(tag: str, value: str) -> None:
        ET.SubElement(root, tag).text = value or None

    el("Nimi", s.name)
    el("JarjestavaSeura", s.club)
    start = s.extra.get(_START, "")
    el(_START, start if start[:10] == s.date and s.date else f"{s.date}T00:00:00" if s.date else "")
    el("TavoitePistemaara", str(s.target))
    el("KaavioTyyppi", s.kind.value)
    el("SijoitustenMaaraytyminen", _PLACING[s.placing])
    el("Sijoittaminen", _SEEDING[s.seeding])
    el("PelaajiaEnintaan", str(s.max_players))
    el("ArvontaSiemen", str(k.draw_seed))
    # this project's own fields; KaisaKaavio's XmlSerializer skips elements it does not know
    el("KaisaPoydat", ",".join(s.tables))
    el("KaisaOsallistumisMaksu", _num(s.entry_fee))
    for key, value in s.extra.items():
        if key != _START:
            el(key, value)
    osallistujat = ET.SubElement(root, "Osallistujat")
    for p in k.players:
        ET.SubElement(
            osallistujat,
            "Pelaaja",
            {"Nimi": p.name, "Seura": p.club, "Sijoitettu": _num(p.seed), **dict(p.extra), "Id": str(p.number)},
        )
    pelit = ET.SubElement(root, "Pelit")
    for g in k.games:
        attrs: dict[str, Any] = {
            "Kierros": str(g.round),
            "KierrosPelaaja1": str(g.round1),
            "KierrosPelaaja2": str(g.round2),
            "PelaajaId1": str(g.player1),
            "PelaajaId2": "" if g.player2 is None else str(g.player2),
            "Pisteet1": g.points1,
            "Pisteet2": g.points2,
            "Poyta": g.table,
            "Tilanne": _STATE[g.state],
            "Alkoi": g.started,
            "Paattyi": g.ended,
        }
        for key, value in (
            ("Lyontivuoroja", _num(g.innings)),
            ("PisinSarja1", _num(g.longest1)),
            ("PisinSarja2", _num(g.longest2)),
            ("ToiseksiPisinSarja1", _num(g.second1)),
            ("ToiseksiPisinSarja2", _num(g.second2)),
            ("LuovutusPelaaja1", g.forfeit1),
            ("LuovutusPelaaja2", g.forfeit2),
            ("HakuKommentti", g.comment),
        ):
            if value:
                attrs[key] = value
        ET.SubElement(pelit, "Peli", attrs)
    ET.indent(root, "  ")
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode")
