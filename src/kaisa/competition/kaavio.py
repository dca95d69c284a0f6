"""The kaavio as one aggregate: register, draw, start games, record and correct results, search, pair by hand.

Pure and typed: players, games and results in; pairings and placings out. Every change that can be sent twice
is idempotent (recording the same result again changes nothing).

Decisions on KAAVIO.md's [?] points that live here:

* Table choice (6): the automatic choice takes the first table in text order that has no running game (the
  in-use flag is respected, unlike KaisaKaavio).
* Late entries (3.1): allowed until a round-2 game starts; the newcomer gets the next number, round 1 gains his
  game if someone was waiting, and the unstarted round-2 games are drawn again for the new count.
* The search runs after a result once a round-2 game has finished and at most 8 games are unfinished (4.1);
  its pairs are added and it runs again until it adds nothing.
* A score that decides nothing (38-39, neither at the target, no v or h) is kept as an interim score and makes
  the game running, as in KaisaKaavio (KAAVIO 7); :func:`interim_text` is what the director is told, so such a
  score is never taken for a saved result.
* The same name twice: a second player of the same name is registered only with a club that tells them apart
  (both clubs given and different); the same name with the same club, or with either club blank, is refused as
  a double registration. Where two names are the same, the pages and the terminal show the club with the name.
* A game starts only on one of the competition's tables (when the competition lists any: an imported
  KaisaKaavio file lists none, and then any table name is taken).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from kaisa.competition import draw as draw_mod
from kaisa.competition import search as search_mod
from kaisa.competition.model import (
    HAND_PAIRED,
    MAX_COMPETITION_NAME,
    MAX_NAME,
    MAX_PLAYERS,
    MAX_TARGET,
    MIN_TARGET,
    CompetitionError,
    Game,
    GameState,
    KaavioType,
    Outcome,
    Player,
    Seeding,
    Settings,
    points_value,
)
from kaisa.errors import ErrorText

MIN_PLAYERS = 4
WALKOVER_POINTS = "60"


@dataclass
class Kaavio:
    """A competition: settings, players (by draw number once drawn) and games in game-number order."""

    settings: Settings
    players: list[Player] = field(default_factory=list)
    games: list[Game] = field(default_factory=list)
    drawn: bool = False
    draw_seed: int = 0

    # -- reading ----------------------------------------------------------------------------------------------

    @property
    def target(self) -> int:
        return self.settings.target

    @property
    def ko(self) -> int:
        return self.settings.kind.first_ko_round

    def player(self, number: int) -> Player:
        index: dict[int, int] = self.__dict__.setdefault("_index", {})
        at = index.get(number)
        if at is None or at >= len(self.players) or self.players[at].number != number:
            # the players changed since the index was made: made again once (a lookup is O(1), not O(players))
            index.clear()
            for i, p in enumerate(self.players):
                index.setdefault(p.number, i)  # the first, as a search from the start finds
            at = index.get(number)
        if at is not None:
            return self.players[at]
        raise CompetitionError(
            "no_such_player", f"Pelaajaa numero {number} ei ole.", f"There is no player number {number}."
        )

    def game(self, number: int) -> Game:
        if 1 <= number <= len(self.games) and self.games[number - 1].number == number:
            return self.games[number - 1]
        for g in self.games:
            if g.number == number:
                return g
        raise CompetitionError(
            "no_such_game",
            f"Peliä numero {number} ei ole; pelejä on {len(self.games)}.",
            f"There is no game number {number}; there are {len(self.games)} games.",
        )

    def numbers(self) -> list[int]:
        return sorted(p.number for p in self.players)

    def decided(self, g: Game) -> bool:
        return g.state == GameState.PLAYED and g.outcome(self.target).decided

    def losses(self, number: int) -> int:
        return sum(1 for g in self.games if self.decided(g) and g.lost(number, self.target))

    def wins(self, number: int) -> int:
        return sum(1 for g in self.games if self.decided(g) and g.won(number, self.target))

    def games_of(self, number: int) -> list[Game]:
        return [g for g in self.games if g.involves(number)]

    def knocked_out(self, number: int) -> bool:
        """Out: two losses, or a loss in a game whose personal round is at least the first KO round."""
        n = 0
        for g in self.games:
            if self.decided(g) and g.lost(number, self.target):
                n += 1
                if n >= 2 or g.personal_round(number) >= self.ko:
                    return True
        return False

    def still_in(self, number: int) -> bool:
        return not self.knocked_out(number)

    def unfinished(self) -> list[Game]:
        return [g for g in self.games if g.state != GameState.PLAYED]

    @property
    def finished(self) -> bool:
        return self.drawn and not self.unfinished() and sum(1 for p in self.players if self.still_in(p.number)) <= 1

    def winner(self) -> int | None:
        if not self.finished:
            return None
        alive = [p.number for p in self.players if self.still_in(p.number)]
        return alive[0] if alive else None

    def ready(self) -> list[Game]:
        return [g for g in self.games if g.state == GameState.READY]

    def running(self) -> list[Game]:
        return [g for g in self.games if g.state == GameState.RUNNING]

    def points_total(self, number: int) -> int:
        total = 0
        for g in self.games:
            if g.state != GameState.PLAYED:
                continue
            if g.player1 == number:
                total += points_value(g.points1, self.target)
            elif g.player2 == number:
                total += points_value(g.points2, self.target)
        return total

    # -- registering and drawing -----------------------------------------------------------------------------

    @property
    def late_entries_open(self) -> bool:
        """Players may still register: before the draw, and after it until a round-2 game (not a walkover) has
        started (KAAVIO: late entries until round 2 starts)."""
        if not self.drawn:
            return True
        return not any(
            g.round == 2 and g.player2 is not None and g.state in (GameState.RUNNING, GameState.PLAYED)
            for g in self.games
        )

    def add_player(self, name: str, club: str = "", seed: int = 0) -> Player:
        name = " ".join(name.split())
        if not name:
            raise CompetitionError("empty_name", "Pelaajan nimi puuttuu.", "The player's name is missing.")
        club = " ".join(club.split())
        for p in self.players:
            if p.name.casefold() != name.casefold():
                continue
            if p.club.casefold() == club.casefold():
                raise CompetitionError(
                    "duplicate_player",
                    f"{_with_club(p)} on jo ilmoittautunut.",
                    f"{_with_club(p)} is already registered.",
                )
            if not p.club or not club:
                raise CompetitionError(
                    "duplicate_player",
                    f"{_with_club(p)} on jo ilmoittautunut. Jos kyse on toisesta samannimisestä pelaajasta, "
                    "anna kummallekin seura, joka erottaa heidät.",
                    f"{_with_club(p)} is already registered. If this is another player of the same name, give "
                    "each of them the club that tells them apart.",
                )
        if len(self.players) >= self.settings.max_players:
            raise CompetitionError(
                "full",
                f"Kilpailu on täynnä ({self.settings.max_players} pelaajaa).",
                f"The competition is full ({self.settings.max_players} players).",
            )
        if not self.drawn:
            p = Player(0, name, club, seed)
            self.players.append(p)
            return p
        if not self.late_entries_open:
            raise CompetitionError(
                "late_entry_closed",
                "Jälki-ilmoittautuminen on päättynyt: toisen kierroksen peli on jo alkanut.",
                "Late entries are closed: a round-2 game has already started.",
            )
        p = Player(max(self.numbers()) + 1, name, club, 0)
        self.players.append(p)
        self._rounds_1_2(late=True)
        self.refresh()
        return p

    def withdraw(self, name: str, club: str = "") -> Player:
        """Take a registered player off the list before the draw. After the draw a player who leaves is not
        removed (his games are in the kaavio): the director records his games as lost."""
        if self.drawn:
            raise CompetitionError(
                "already_drawn",
                "Kaavio on jo arvottu: pelaajaa ei voi enää poistaa; kirjaa hänen pelinsä hävityiksi.",
                "The draw has already been made: the player cannot be removed any more; record his games as lost.",
            )
        key = " ".join(name.split()).casefold()
        for p in self.players:
            if p.name.casefold() == key and (not club or p.club == club):
                self.players.remove(p)
                return p
        raise CompetitionError(
            "no_such_player", f"Pelaajaa {name} ei ole ilmoittautunut.", f"No player {name} is registered."
        )

    def draw(self, seed: int | None = None) -> None:
        """Give draw numbers at random (seeded, so a draw is reproducible) and make rounds 1 and 2."""
        if self.drawn:
            raise CompetitionError("already_drawn", "Kaavio on jo arvottu.", "The draw has already been made.")
        n = len(self.players)
        if n < MIN_PLAYERS:
            raise CompetitionError(
                "too_few_players",
                f"Arvontaan tarvitaan vähintään {MIN_PLAYERS} pelaajaa; ilmoittautuneita on {n}.",
                f"The draw needs at least {MIN_PLAYERS} players; "
                + ("none is registered." if n == 0 else "only 1 is registered." if n == 1 else f"{n} are registered."),
            )
        self.draw_seed = random.SystemRandom().randrange(2**31) if seed is None else seed
        rng = random.Random(self.draw_seed)
        places: list[int] = []
        if self.settings.seeding == Seeding.EIGHT:
            places = draw_mod.seed_numbers_8(n)
        elif self.settings.seeding == Seeding.TWENTY_FOUR:
            places = draw_mod.seed_numbers_24(n)
        numbers = draw_mod.draw_numbers(n, [p.seed for p in self.players], rng, places)
        self.players = sorted(
            (replace(p, number=k) for p, k in zip(self.players, numbers, strict=True)), key=lambda p: p.number
        )
        self.drawn = True
        self._rounds_1_2(late=False)
        self.refresh()

    def assign_numbers(self, numbers: dict[str, int]) -> None:
        """Take draw numbers given from outside (an imported competition, a replay) instead of drawing."""
        self.players = sorted((replace(p, number=numbers[p.name]) for p in self.players), key=lambda p: p.number)
        self.drawn = True
        self._rounds_1_2(late=False)
        self.refresh()

    def _rounds_1_2(self, late: bool) -> None:
        n = len(self.players)
        keep = [g for g in self.games if g.round == 1 or g.player2 is None] if late else []
        kept_round2 = [g for g in self.games if g.round == 2 and g.player2 is not None] if late else []
        if any(g.state != GameState.EMPTY and g.state != GameState.READY for g in kept_round2):
            raise CompetitionError(
                "late_entry_closed",
                "Jälki-ilmoittautuminen on päättynyt: toisen kierroksen peli on jo alkanut.",
                "Late entries are closed: a round-2 game has already started.",
            )
        games: list[Game] = list(keep)
        if not late and self.settings.seeding == Seeding.TWENTY_FOUR:
            for p in self.players:
                if 1 <= p.seed <= 24:
                    for r in (1, 2) if p.seed <= 12 else (1,):
                        games.append(
                            Game(0, r, r, 0, p.number, None, WALKOVER_POINTS, "0", GameState.PLAYED, comment="w.o.")
                        )
        count = {p.number: 0 for p in self.players}
        met: set[frozenset[int]] = set()
        for g in games:
            count[g.player1] += 1
            if g.player2 is not None:
                count[g.player2] += 1
                met.add(frozenset((g.player1, g.player2)))
        busy = {g.player1 for g in games if g.player2 is None} | {
            x for g in games if g.round == 1 for x in g.pair() if x is not None
        }
        for a, b in draw_mod.round1_pairs(self.numbers(), busy):
            games.append(Game(0, 1, 1, 1, a, b))
            count[a] += 1
            count[b] += 1
            met.add(frozenset((a, b)))
        twist = n % 4 == 2 and self.settings.seeding != Seeding.TWENTY_FOUR
        for a, b, ra, rb in draw_mod.round2_pairs(n, count, met, twist):
            games.append(Game(0, max(ra, rb), ra, rb, a, b))
        walkovers = [g for g in games if g.player2 is None]
        rest = [g for g in games if g.player2 is not None]
        rest.sort(key=lambda g: g.round)
        self.games = [g.with_(number=i + 1) for i, g in enumerate(walkovers + rest)]

    # -- running the night -----------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Recompute which games are ready to start (ValmiinaAlkamaan, KAAVIO 6)."""
        invalid = any(g.state == GameState.PLAYED and g.outcome(self.target) == Outcome.INVALID for g in self.games)
        playing = {x for g in self.games if g.state == GameState.RUNNING for x in g.pair() if x is not None}
        out = []
        for g in self.games:
            if g.state in (GameState.RUNNING, GameState.PLAYED) or g.player2 is None:
                out.append(g)
                continue
            ready = not invalid and g.player1 not in playing and g.player2 not in playing
            if ready and (g.round > 2 or (self.settings.kind == KaavioType.KO2 and g.round == 2)):
                ready = not any(
                    h.number < g.number
                    and h.state != GameState.PLAYED
                    and (h.involves(g.player1) or h.involves(g.player2))
                    for h in self.games
                )
            out.append(g.with_(state=GameState.READY if ready else GameState.EMPTY))
        self.games = out

    def _put(self, g: Game) -> Game:
        self.games[self.games.index(self.game(g.number))] = g
        return g

    def free_tables(self) -> list[str]:
        used = {g.table for g in self.running()}
        return sorted((t for t in self.settings.tables if t not in used), key=_table_key)

    def start(self, number: int, table: str = "", when: str = "", match_id: str = "") -> Game:
        g = self.game(number)
        if g.state == GameState.RUNNING and (not table or g.table == table):
            return g  # sent twice: started once
        if g.state != GameState.READY:
            raise CompetitionError(
                "not_ready",
                f"Peli {number} ei ole valmis alkamaan.",
                f"Game {number} is not ready to start.",
            )
        if not table:
            free = self.free_tables()
            table = free[0] if free else ""
        elif self.settings.tables and table not in self.settings.tables:
            listed = ", ".join(sorted(self.settings.tables, key=_table_key))
            raise CompetitionError(
                "unknown_table",
                f"Pöytää {table} ei ole tämän kilpailun pöydissä; pöydät ovat {listed}.",
                f"Table {table} is not one of this competition's tables; the tables are {listed}.",
            )
        elif table in {h.table for h in self.running()}:
            raise CompetitionError(
                "table_busy", f"Pöydällä {table} on jo peli käynnissä.", f"Table {table} already has a game running."
            )
        g = self._put(g.with_(state=GameState.RUNNING, table=table, started=when, match_id=match_id))
        self.refresh()
        return g

    def record(
        self,
        number: int,
        points1: str,
        points2: str,
        *,
        innings: int = 0,
        longest1: int = 0,
        longest2: int = 0,
        when: str = "",
        final: bool = True,
    ) -> list[Game]:
        """Record a game's score; with a decided result the game is played and the search runs.

        Returns the games the search added. The same result sent twice is recorded once.
        """
        g = self.game(number)
        if g.player2 is None:
            raise CompetitionError("walkover", f"Peli {number} on luovutusvoitto.", f"Game {number} is a walkover.")
        outcome = Game(0, 0, 0, 0, 0, 0, points1, points2).outcome(self.target)
        if g.state == GameState.PLAYED:
            if (g.points1, g.points2) == (points1, points2):
                return []
            return self.correct(number, points1, points2, innings=innings, longest1=longest1, longest2=longest2)
        if not final or not outcome.decided:
            if outcome == Outcome.INVALID:
                raise _invalid(points1, points2)
            state = GameState.RUNNING if g.state == GameState.RUNNING or points1 or points2 else g.state
            if state == GameState.RUNNING and g.state != GameState.RUNNING and g.state != GameState.READY:
                raise CompetitionError(
                    "not_ready", f"Peli {number} ei ole valmis alkamaan.", f"Game {number} is not ready to start."
                )
            self._put(g.with_(points1=points1, points2=points2, state=state))
            self.refresh()
            return []
        if g.state not in (GameState.READY, GameState.RUNNING):
            raise CompetitionError(
                "not_ready",
                f"Pelin {number} tulosta ei voi kirjata: peli ei ole valmis alkamaan.",
                f"Game {number}'s result cannot be recorded: the game is not ready to start.",
            )
        self._put(
            g.with_(
                points1=points1,
                points2=points2,
                state=GameState.PLAYED,
                innings=innings,
                longest1=longest1,
                longest2=longest2,
                ended=when,
            )
        )
        self.refresh()
        return self.run_search()

    def correct(
        self, number: int, points1: str, points2: str, *, innings: int = 0, longest1: int = 0, longest2: int = 0
    ) -> list[Game]:
        """Correct a played result (KAAVIO 4.1): editable until either player starts his next game; the
        unstarted games of round 3+ numbered after it are deleted and the search runs again."""
        g = self.game(number)
        outcome = Game(0, 0, 0, 0, 0, 0, points1, points2).outcome(self.target)
        if not outcome.decided:
            raise _invalid(points1, points2)
        later = [
            h
            for h in self.games
            if h.number > number
            and h.state in (GameState.RUNNING, GameState.PLAYED)
            and h.player2 is not None
            and (h.involves(g.player1) or (g.player2 is not None and h.involves(g.player2)))
        ]
        if self.settings.kind == KaavioType.CUP and g.round <= 2 and any(h.round >= 3 for h in self.games):
            raise CompetitionError(
                "cup_drawn",
                f"Pelin {number} tulosta ei voi enää korjata: cup on jo arvottu kahden kierroksen tuloksista.",
                f"Game {number}'s result can no longer be corrected: the cup has been drawn from rounds 1-2.",
            )
        if later:
            raise CompetitionError(
                "locked",
                f"Pelin {number} tulosta ei voi enää korjata: pelaaja on jo aloittanut seuraavan pelinsä "
                f"(peli {later[0].number}).",
                f"Game {number}'s result can no longer be corrected: a player has already started his next game "
                f"(game {later[0].number}).",
            )
        self._put(g.with_(points1=points1, points2=points2, innings=innings, longest1=longest1, longest2=longest2))
        self.games = [
            h
            for h in self.games
            if not (h.number > number and h.round >= 3 and h.state in (GameState.EMPTY, GameState.READY))
        ]
        self.games = [h.with_(number=i + 1) for i, h in enumerate(self.games)]
        self.refresh()
        return self.run_search()

    def pair_by_hand(self, a: int, b: int, reason: str) -> Game:
        """Hae käsin: the director pairs two players still in who have no unfinished game."""
        if not reason.strip():
            raise CompetitionError(
                "reason_missing",
                "Kirjaa syy, miksi peli haetaan käsin.",
                "Record the reason for pairing by hand.",
            )
        for x in (a, b):
            self.player(x)
            if not self.still_in(x):
                raise CompetitionError("player_out", f"Pelaaja {x} on jo pudonnut.", f"Player {x} is already out.")
            if any(g.involves(x) for g in self.unfinished()):
                raise CompetitionError(
                    "player_busy",
                    f"Pelaajalla {x} on pelaamaton peli.",
                    f"Player {x} has an unfinished game.",
                )
        if a == b:
            raise CompetitionError(
                "same_player", "Pelaaja ei voi pelata itseään vastaan.", "A player cannot play himself."
            )
        ra, rb = len(self.games_of(a)) + 1, len(self.games_of(b)) + 1
        if (rb, b) < (ra, a):
            a, b, ra, rb = b, a, rb, ra
        g = Game(len(self.games) + 1, max(ra, rb), ra, rb, a, b, comment=HAND_PAIRED + " ".join(reason.split()))
        self.games.append(g)
        self.refresh()
        return self.game(g.number)

    def search_allowed(self) -> bool:
        return (
            self.drawn
            and any(g.round == 2 and g.player2 is not None and self.decided(g) for g in self.games)
            and len(self.unfinished()) <= search_mod.MAX_UNFINISHED
        )

    def run_search(self) -> list[Game]:
        """Run the search until it adds nothing (KAAVIO 4.1); the new games, numbered on."""
        added: list[Game] = []
        if self.settings.kind == KaavioType.CUP:
            from kaisa.competition.cup import advance_cup

            added = advance_cup(self)
            self.refresh()
            return added
        for _ in range(64):
            if not self.search_allowed():
                break
            pairs = search_mod.search(self.numbers(), self.search_games(), self.ko)
            if not pairs:
                break
            for p in pairs:
                g = Game(len(self.games) + 1, p.round, p.round1, p.round2, p.player1, p.player2, comment=p.comment)
                self.games.append(g)
                added.append(g)
        self.refresh()
        return [self.game(g.number) for g in added]

    def search_games(self) -> list[search_mod.SGame]:
        out = []
        for g in self.games:
            played = g.state == GameState.PLAYED
            losers: frozenset[int] = frozenset()
            if played and g.player2 is not None:
                o = g.outcome(self.target)
                if o in (Outcome.P2, Outcome.BOTH_LOST):
                    losers |= {g.player1}
                if o in (Outcome.P1, Outcome.BOTH_LOST):
                    losers |= {g.player2}
            out.append(search_mod.SGame(g.player1, g.player2, g.round1, g.round2, g.round, played, losers))
        return out

    # -- JSON ------------------------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "settings": self.settings.to_json(),
            "players": [p.to_json() for p in self.players],
            "games": [g.to_json() for g in self.games],
            "drawn": self.drawn,
            "draw_seed": self.draw_seed,
        }

    @staticmethod
    def from_json(d: dict[str, Any]) -> Kaavio:
        k = Kaavio(
            Settings.from_json(d["settings"]),
            [Player.from_json(p) for p in d.get("players", [])],
            [Game.from_json(g) for g in d.get("games", [])],
            bool(d.get("drawn", False)),
            int(d.get("draw_seed", 0)),
        )
        k.check()
        return k

    def check(self) -> None:
        """Refuse a kaavio read from a file that the API would not have made: more players than
        :data:`~kaisa.competition.model.MAX_PLAYERS` or its own most, a name too long, a target outside
        10-200, or a game naming a player who is not in it. The same limits for
        a competition file, a KaisaKaavio import and the API's requests."""
        s = self.settings

        def bad(fi: str, en: str) -> CompetitionError:
            return CompetitionError(
                "bad_competition", f"Kilpailu ei kelpaa: {fi}.", f"The competition is not valid: {en}."
            )

        if not MIN_TARGET <= s.target <= MAX_TARGET:
            raise bad(
                f"pistetavoite on {str(s.target)[:12]}, kun sen pitää olla {MIN_TARGET}–{MAX_TARGET}",
                f"the target is {str(s.target)[:12]}, where it must be {MIN_TARGET}-{MAX_TARGET}",
            )
        if len(s.name) > MAX_COMPETITION_NAME or len(s.club) > MAX_NAME:
            raise bad(
                f"kilpailun nimi saa olla enintään {MAX_COMPETITION_NAME} ja seuran {MAX_NAME} merkkiä",
                f"the competition's name is at most {MAX_COMPETITION_NAME} characters and the club's {MAX_NAME}",
            )
        most = min(max(s.max_players, MIN_PLAYERS), MAX_PLAYERS)
        if not MIN_PLAYERS <= s.max_players <= MAX_PLAYERS or len(self.players) > most:
            raise bad(
                f"siinä on {len(self.players)} pelaajaa ja enimmäismäärä {str(s.max_players)[:12]}, kun pelaajia "
                f"voi olla enintään {MAX_PLAYERS} (enimmäismäärä {MIN_PLAYERS}–{MAX_PLAYERS})",
                f"it has {len(self.players)} players and a most of {str(s.max_players)[:12]}, where at most "
                f"{MAX_PLAYERS} players are allowed (a most of {MIN_PLAYERS}-{MAX_PLAYERS})",
            )
        numbers = set()
        for p in self.players:
            if len(p.name) > MAX_NAME or len(p.club) > MAX_NAME:
                raise bad(
                    f"pelaajan {p.number} nimi tai seura on yli {MAX_NAME} merkkiä",
                    f"player {p.number}'s name or club is longer than {MAX_NAME} characters",
                )
            numbers.add(p.number)
        for i, g in enumerate(self.games):
            if g.number != i + 1:
                raise bad(f"pelin {i + 1} numero on {g.number}", f"game {i + 1} has the number {g.number}")
            if g.player1 not in numbers or (g.player2 is not None and g.player2 not in numbers):
                raise bad(
                    f"peli {g.number} nimeää pelaajan, joka ei ole kilpailussa",
                    f"game {g.number} names a player who is not in the competition",
                )


def _table_key(t: str) -> tuple[int, str]:
    return (int(t), t) if t.isdigit() else (10**9, t)


def _with_club(p: Player) -> str:
    return f"{p.name} ({p.club})" if p.club else p.name


def interim_text(k: Kaavio, number: int) -> ErrorText | None:
    """What the director is told when a score he entered decides nothing: the game goes on, the score is kept as
    an interim score (None when the game is played, i.e. the result decided it)."""
    g = k.game(number)
    if g.state == GameState.PLAYED:
        return None
    p1, p2 = g.points1 or "0", g.points2 or "0"
    return ErrorText(
        f"Peli {number} jatkuu: kumpikaan ei ole saavuttanut tavoitetta ({k.target} pistettä), joten {p1}–{p2} "
        "on tallennettu välitilanteeksi. Kirjaa lopputulos, kun peli päättyy (voittajalle tavoitepisteet tai "
        "merkintä v, hävinneelle h).",
        f"Game {number} goes on: neither player has reached the target ({k.target} points), so {p1}-{p2} is kept "
        "as an interim score. Record the final result when the game ends (the target for the winner, or mark him "
        "v and the loser h).",
    )


def _invalid(points1: str, points2: str) -> CompetitionError:
    return CompetitionError(
        "invalid_result",
        f"Tulos {points1}–{points2} ei ratkaise peliä: voittaja saavuttaa tavoitepisteet tai saa merkinnän v, "
        "hävinnyt merkinnän h.",
        f"Result {points1}-{points2} does not decide the game: the winner reaches the target or is marked v, "
        "the loser h.",
    )


def by_numbers(games: Iterable[Game]) -> list[tuple[int, int | None]]:
    """The pairs of games, for tests and printing."""
    return [g.pair() for g in games]
