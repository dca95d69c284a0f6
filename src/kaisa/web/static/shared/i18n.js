// Finnish and English for every label of the page. The referee's rulings come with both languages from the
// server (`fi`, `en`); the few server texts that come in English only (clock notes, lag reasons, the result's
// reason) are translated here by their exact English wording.

const STORAGE_KEY = "kaisa.lang";

/** @typedef {"fi" | "en"} Language */

/** @type {Record<Language, Record<string, string>>} */
const STRINGS = {
  en: {
    "nav.new": "New game",
    "nav.history": "History",
    "nav.study": "Study",
    "nav.club": "Club match",
    "start.title": "Kaisa, the Finnish five-ball billiards",
    "start.computer": "Against the computer",
    "start.yourName": "Your name",
    "start.level": "Level",
    "start.computerFirst": "The computer is player 1",
    "start.clock": "Competition clock (60 min)",
    "start.more": "More",
    "start.seed": "Seed (optional, for a repeatable computer)",
    "start.play": "Play",
    "start.two": "Two players at one screen",
    "start.player1": "Player 1",
    "start.player2": "Player 2",
    "start.study": "Study",
    "start.studyText": "Set up any position, play any stroke and ask the advisor for the best calls.",
    "start.openStudy": "Open the study table",
    "start.history": "History",
    "start.historyText": "Continue an unfinished match or replay one stroke by stroke.",
    "start.openHistory": "Past matches",
    "start.defaultName": "Player",
    "history.title": "Past matches",
    "history.players": "Players",
    "history.status": "Status",
    "history.actions": "Actions",
    "history.result": "Result",
    "history.updated": "Updated",
    "history.empty": "No matches yet.",
    "history.continue": "Continue",
    "history.replay": "Replay",
    "history.playing": "playing",
    "history.over": "over",
    "call.title": "Call",
    "call.none": "No call",
    "call.ball": "Ball",
    "call.more": "Route and konsti (kyyti, kara, kiss)",
    "call.pocket": "Pocket",
    "call.cueRoute": "Cue ball's cushions",
    "call.ballRoute": "Called ball's cushions",
    "call.konsti": "Konsti",
    "call.konstiNone": "none",
    "call.konstiBall": "Konsti ball",
    "call.konstiRoute": "Konsti leg's cushions",
    "call.text": "Call in the notation",
    "call.hint": "Click a ball and a pocket on the table to call them. Cushions: h f lh lf rh rf, or a count.",
    "call.checking": "checking…",
    "call.valid": "valid call: {call}",
    "call.noCall": "no call: nothing can score",
    "call.missing": "Call a ball and a pocket, or tick “No call”.",
    "call.choose": "–",
    "stroke.title": "Stroke",
    "stroke.direction": "Direction (°)",
    "stroke.aimCall": "Aim at the called pot",
    "stroke.aimNeedsCall": "Choose the called ball and pocket first.",
    "stroke.speed": "Power",
    "stroke.elevation": "Elevation",
    "stroke.centre": "Centre",
    "stroke.side": "side",
    "stroke.follow": "follow",
    "stroke.draw": "draw",
    "stroke.shoot": "Shoot",
    "stroke.lag": "Play the lag",
    "match.undo": "Undo",
    "match.score": "Score",
    "match.innings": "Innings",
    "match.run": "Current run",
    "match.fouls": "Fouls",
    "match.atTable": "at the table",
    "match.inHand": "ball in hand",
    "match.person": "person",
    "match.computer": "computer: {level}",
    "match.phase": "Phase",
    "match.noBall": "cue ball not chosen yet",
    "match.thinking": "{name} is thinking…",
    "match.retry": "Ask the computer again",
    "match.lagPrompt": "The lag: place your ball behind the head string in your half, aim at the foot cushion and play. Nearest the head cushion wins.",
    "match.lagPromptTwo": "The lag: both place their ball behind the head string in their half (click a ball to aim it), then play both at once.",
    "match.lagActive": "Aiming: {name} ({ball})",
    "match.choosePrompt": "{name} won the lag: take W1 and break, or W2 and place it first.",
    "match.chooseW1": "W1 (one dot): break",
    "match.chooseW2": "W2 (two dots): place first",
    "match.placePrompt": "{name}: place W2 beyond the centre line, clear of the kaisa's lines to the foot corners (red), then confirm.",
    "match.placeW2": "Place W2 here",
    "match.playPrompt": "{name} to play with {ball}.",
    "match.handPrompt": "{name} has the ball in hand: drag {ball} within the lit area behind the head string.",
    "match.openingPrompt": "The break: the kaisa may not go directly into a middle pocket and the red on the head string may not be played directly.",
    "match.waitPrompt": "{name} to play.",
    "match.overPrompt": "The match is over.",
    "match.winner": "Winner: {name} ({ball})",
    "match.recorded": "recorded {a}–{b}",
    "match.lagResult": "Lag: {name} wins.",
    "match.lagAgain": "Lag again: no winner.",
    "match.lagFault": "{name}: {reasons}",
    "match.lagGood": "{name}: good lag",
    "match.notFound": "Match {id} was not found.",
    "phase.lag": "Lag",
    "phase.choose": "Choosing cue balls",
    "phase.place-w2": "Placing W2",
    "phase.play": "Play",
    "phase.shootout-lag": "Shoot-out lag",
    "phase.shootout": "Penalty shoot-out",
    "phase.over": "Over",
    "clock.title": "Clock",
    "clock.off": "casual (no clock)",
    "clock.warning": "five minutes left",
    "clock.final": "Time is up: final innings {left}",
    "clock.over": "Time is up: the final innings are played",
    "clock.break": "Take a break",
    "clock.breakRunning": "Break: {time} (at most 5:00)",
    "clock.resume": "Resume play",
    "shootout.title": "Shoot-out",
    "shootout.innings": "{name} ({ball}) {n}/10 innings",
    "shootout.first": "{name} started",
    "ruling.title": "Ruling",
    "ruling.points": "Points {points}",
    "ruling.continues": "the inning continues",
    "ruling.passes": "the turn passes",
    "ruling.gameOver": "the match is over",
    "aim.searching": "Finding the window that pots the call…",
    "match.lagDistance": "{name} (lag ball on the {side}): {cm} cm from the head cushion",
    "match.lagGone": "{name} (lag ball on the {side}): not on the table",
    "match.lagLeft": "left",
    "match.lagRight": "right",
    "match.chose": "{name} chose {ball}: {what}.",
    "match.choseW1": "breaks",
    "match.choseW2": "places W2 first",
    "ruling.callMissed": "The call {call} did not score.",
    "inning.title": "The inning so far",
    "replay.scrub": "Jump to a stroke",
    "history.strokes": "Strokes",
    "history.won": "{name} won",
    "call.cannotScore": "{call} cannot score now:",
    "aim.window": "Aimed at the centre of the potting window ({width}° wide) at {speed} m/s.",
    "aids.title": "Aiming aids",
    "aids.full": "full (with preview)",
    "aids.line": "line only",
    "aids.none": "none",
    "preview.pots": "Preview: the call goes in ({points})",
    "preview.misses": "Preview: the call misses ({points})",
    "preview.noCall": "Preview: no call was made, so nothing scores ({points})",
    "preview.foul": "Preview: a foul ({points})",
    "sound.on": "Sound",
    "sound.off": "Sound off",
    "help.title": "Keys and gestures",
    "help.arrows": "← turns the aim anticlockwise, → clockwise, as seen on the screen: 0.1° a press, 0.01° near the potting window (when the aim helper has found it or the preview says the call goes in); Shift: 0.01°, Alt: 1°",
    "aim.anticlockwise": "Turn the aim {step} anticlockwise",
    "aim.clockwise": "Turn the aim {step} clockwise",
    "help.power": "power ±0.05 m/s (Shift: ±0.01)",
    "help.spaceKey": "Space, Enter",
    "help.shoot": "shoot",
    "help.aim": "aim at the called pot",
    "help.sound": "sound on or off",
    "help.help": "this help",
    "help.dragKey": "drag on the table",
    "help.drag": "aim towards the pointer; dragging along the aim line turns it finely (Shift: finer still)",
    "help.clickKey": "tap a ball, a pocket",
    "help.click": "call them",
    "help.pullKey": "pull back from behind the cue ball",
    "help.pull": "power (the bar shows m/s): press on the cue line behind the cue ball and pull away from it; the power bar below the slider works the same way. Where the cue ball may be moved (the study, a ball in hand), pressing on the ball itself moves it",
    "help.tipKey": "cue-ball diagram",
    "help.tip": "spin: where the cue tip strikes; with the keyboard, Tab to it and the arrows (Shift: finer)",
    "help.move": "the arrows move the ball being placed (the cue ball in hand, the study's balls, a lag ball; B again: they aim). W2's place moves with the arrows at once, and Enter places it",
    "keys.moving": "The arrows move {ball} (1 cm a press, Shift 1 mm, Alt 5 cm). B: aim again.",
    "keys.aiming": "The arrows aim again. B: move the ball.",
    "keys.nothingToMove": "No ball may be moved now.",
    "keys.moved": "{ball} moved.",
    "stroke.tipLabel": "Where the cue tip strikes: the arrows move it",
    "help.close": "Close",
    "summary.title": "{name} wins the match",
    "summary.player": "Player",
    "summary.points": "Points",
    "summary.innings": "Innings",
    "summary.bestRun": "Best run",
    "summary.pots": "Pots / strokes",
    "summary.fouls": "Fouls",
    "summary.rematch": "Rematch",
    "summary.open": "Summary",
    "summary.newGame": "New game",
    "summary.replay": "Replay",
    "match.undoStroke": "Undo your stroke {what}",
    "match.undoStrokeAndOne": "Undo your stroke {what} and the computer's stroke",
    "match.undoStrokeAndMany": "Undo your stroke {what} and the computer's {n} strokes",
    "match.undoStrokeOf": "Undo {name}'s stroke {what}",
    "match.undoCalled": "“{call}”",
    "match.undoUncalled": "without a call",
    "match.undoShortCalled": "Undo “{call}”",
    "match.undoShort": "Undo your stroke",
    "match.undoShortOf": "Undo {name}'s stroke",
    "ruling.fouls": "Fouls",
    "ruling.notes": "Notes",
    "ruling.clause": "clause",
    "ruling.byShooter": "{name} ({ball})",
    "ruling.noCall": "no call",
    "log.title": "Strokes",
    "anim.speed": "Animation",
    "anim.skip": "Skip",
    "study.title": "Study",
    "study.hint": "Drag any ball, the cue ball too; pull back from behind the cue ball to set the power; untick a ball to take it off the table.",
    "study.shooter": "At the table",
    "study.level": "Advisor",
    "study.advise": "Advise",
    "study.advising": "The advisor is thinking…",
    "study.back": "Back to the position before",
    "study.reset": "Starting position",
    "study.prompt": "Study: {ball} to play. Any stroke, any call; nothing is recorded.",
    "study.noAdvice": "The advisor found nothing to suggest.",
    "study.safety": "safety",
    "study.pPot": "pot {p}%",
    "study.ev": "expected {e} points",
    "study.pFoul": "foul {p}%",
    "study.leave": "leave {v}",
    "study.cueMissing": "{ball} is not on the table: put it back to play.",
    "study.state": "Game state",
    "study.inHand": "{ball} in hand",
    "study.opening": "The break (1.2)",
    "study.twice": "The last pot of this inning: the kaisa directly into a middle pocket (2.1)",
    "study.scores": "Scores",
    "study.stateSummary": "{ball} to play · {w1}–{w2}",
    "study.stateHand": "{ball} in hand",
    "study.stateOpening": "the break",
    "help.hint": "a hint from the advisor (in a match)",
    "hint.ask": "Hint",
    "hint.level": "Advisor",
    "hint.thinking": "The advisor is thinking… {s} s",
    "hint.title": "Hint",
    "hint.odds": "pot {p} % · expected {e} points · foul {f} %",
    "hint.place": "Place {ball} first where the ring shows: {head} cm from the head cushion, {side} cm from the {which} cushion.",
    "hint.left": "left",
    "hint.right": "right",
    "hint.take": "Take the hint",
    "hint.dismiss": "Dismiss",
    "hint.none": "The advisor found nothing to suggest.",
    "hint.safety": "A safety: no call, leave the balls hard for the opponent.",
    "hint.note": "A hint changes nothing in the match and is not recorded.",
    "log.earlier": "Earlier strokes are in the replay.",
    "replay.loading": "loading…",
    "replay.title": "Replay",
    "replay.play": "Play all",
    "replay.step": "stroke {i} / {n}",
    "replay.start": "start",
    "replay.lag": "lag",
    "replay.choose": "{name} takes {ball}",
    "replay.place": "W2 placed at ({x}, {y})",
    "replay.shot": "{ball}: {call}, {speed} m/s at {direction}°",
    "replay.break": "break of {s} s",
    "replay.prompt": "Match {id}: {a} – {b}",
    "error.generic": "Something went wrong: {detail}",
  },
  fi: {
    "nav.new": "Uusi peli",
    "nav.history": "Historia",
    "nav.study": "Harjoittelu",
    "nav.club": "Seuraottelu",
    "start.title": "Kaisa, suomalainen viiden pallon biljardi",
    "start.computer": "Tietokonetta vastaan",
    "start.yourName": "Nimesi",
    "start.level": "Taso",
    "start.computerFirst": "Tietokone on pelaaja 1",
    "start.clock": "Kilpailukello (60 min)",
    "start.more": "Lisää",
    "start.seed": "Siemenluku (valinnainen, toistettava tietokone)",
    "start.play": "Pelaa",
    "start.two": "Kaksi pelaajaa samalla ruudulla",
    "start.player1": "Pelaaja 1",
    "start.player2": "Pelaaja 2",
    "start.study": "Harjoittelu",
    "start.studyText": "Aseta mikä tahansa asema, lyö mikä tahansa lyönti ja kysy neuvojalta parhaat maalaukset.",
    "start.openStudy": "Avaa harjoituspöytä",
    "start.history": "Historia",
    "start.historyText": "Jatka keskeneräistä ottelua tai katso ottelu uudelleen lyönti lyönniltä.",
    "start.openHistory": "Aiemmat ottelut",
    "start.defaultName": "Pelaaja",
    "history.title": "Aiemmat ottelut",
    "history.players": "Pelaajat",
    "history.status": "Tila",
    "history.actions": "Toiminnot",
    "history.result": "Tulos",
    "history.updated": "Päivitetty",
    "history.empty": "Ei vielä otteluita.",
    "history.continue": "Jatka",
    "history.replay": "Katso uudelleen",
    "history.playing": "kesken",
    "history.over": "päättynyt",
    "call.title": "Maalaus",
    "call.none": "Ei maalausta",
    "call.ball": "Pallo",
    "call.more": "Reitti ja konsti (kyyti, kara, kiss)",
    "call.pocket": "Pussi",
    "call.cueRoute": "Lyöntipallon vallit",
    "call.ballRoute": "Kohdepallon vallit",
    "call.konsti": "Konsti",
    "call.konstiNone": "ei",
    "call.konstiBall": "Konstipallo",
    "call.konstiRoute": "Konstin osuuden vallit",
    "call.text": "Maalaus merkintätavalla",
    "call.hint": "Napsauta pöydältä pallo ja pussi maalataksesi ne. Vallit: h f lh lf rh rf tai lukumäärä.",
    "call.checking": "tarkistetaan…",
    "call.valid": "kelvollinen maalaus: {call}",
    "call.noCall": "ei maalausta: mikään ei tuota pisteitä",
    "call.missing": "Maalaa pallo ja pussi tai valitse ”Ei maalausta”.",
    "call.choose": "–",
    "stroke.title": "Lyönti",
    "stroke.direction": "Suunta (°)",
    "stroke.aimCall": "Tähtää maalattuun pussitukseen",
    "stroke.aimNeedsCall": "Valitse ensin maalattu pallo ja pussi.",
    "stroke.speed": "Voima",
    "stroke.elevation": "Kohotus",
    "stroke.centre": "Keskelle",
    "stroke.side": "sivu",
    "stroke.follow": "ylä",
    "stroke.draw": "ala",
    "stroke.shoot": "Lyö",
    "stroke.lag": "Lyö teikkaus",
    "match.undo": "Peru",
    "match.score": "Pisteet",
    "match.innings": "Lyöntivuorot",
    "match.run": "Sarja",
    "match.fouls": "Virheet",
    "match.atTable": "pöydässä",
    "match.inHand": "käsipallo",
    "match.person": "ihminen",
    "match.computer": "tietokone: {level}",
    "match.phase": "Vaihe",
    "match.noBall": "lyöntipalloa ei ole vielä valittu",
    "match.thinking": "{name} miettii…",
    "match.retry": "Pyydä tietokonetta uudelleen",
    "match.lagPrompt": "Teikkaus: aseta pallosi aloituslinjan taakse omalle puoliskollesi, tähtää alapään valliin ja lyö. Lähimmäs aloituspään vallia päässyt voittaa.",
    "match.lagPromptTwo": "Teikkaus: kumpikin asettaa pallonsa aloituslinjan taakse omalle puoliskolleen (napsauta palloa tähdätäksesi sillä), sitten molemmat lyödään yhtä aikaa.",
    "match.lagActive": "Tähtää: {name} ({ball})",
    "match.choosePrompt": "{name} voitti teikkauksen: ota W1 ja aloita, tai W2 ja aseta se ensin.",
    "match.chooseW1": "W1 (yksi piste): aloittaa",
    "match.chooseW2": "W2 (kaksi pistettä): asetetaan ensin",
    "match.placePrompt": "{name}: aseta W2 keskilinjan taakse niin, että kaisan linjat alapään kulmapusseihin (punaiset) jäävät vapaiksi, ja vahvista.",
    "match.placeW2": "Aseta W2 tähän",
    "match.playPrompt": "{name} lyö pallolla {ball}.",
    "match.handPrompt": "{name}: käsipallo. Vedä {ball} valaistulle alueelle aloituslinjan taakse.",
    "match.openingPrompt": "Aloituslyönti: kaisaa ei saa pussittaa suoraan keskipussiin eikä aloituslinjan punaista saa pelata suoraan.",
    "match.waitPrompt": "{name} lyö.",
    "match.overPrompt": "Ottelu on päättynyt.",
    "match.winner": "Voittaja: {name} ({ball})",
    "match.recorded": "kirjataan {a}–{b}",
    "match.lagResult": "Teikkaus: {name} voittaa.",
    "match.lagAgain": "Teikkaus uusitaan: ei voittajaa.",
    "match.lagFault": "{name}: {reasons}",
    "match.lagGood": "{name}: hyvä teikkaus",
    "match.notFound": "Ottelua {id} ei löytynyt.",
    "phase.lag": "Teikkaus",
    "phase.choose": "Lyöntipallon valinta",
    "phase.place-w2": "W2:n asettaminen",
    "phase.play": "Peli",
    "phase.shootout-lag": "Rankkarin teikkaus",
    "phase.shootout": "Rangaistuslyönnit (rankkari)",
    "phase.over": "Päättynyt",
    "clock.title": "Kello",
    "clock.off": "vapaa peli (ei kelloa)",
    "clock.warning": "viisi minuuttia jäljellä",
    "clock.final": "Aika on täynnä: viimeiset lyöntivuorot {left}",
    "clock.over": "Aika on täynnä: viimeiset lyöntivuorot on pelattu",
    "clock.break": "Pidä tauko",
    "clock.breakRunning": "Tauko: {time} (enintään 5:00)",
    "clock.resume": "Jatka peliä",
    "shootout.title": "Rankkari",
    "shootout.innings": "{name} ({ball}) {n}/10 lyöntivuoroa",
    "shootout.first": "{name} aloitti",
    "ruling.title": "Tuomio",
    "ruling.points": "Pisteet {points}",
    "ruling.continues": "lyöntivuoro jatkuu",
    "ruling.passes": "lyöntivuoro vaihtuu",
    "ruling.gameOver": "ottelu päättyi",
    "aim.searching": "Etsitään suuntien ikkunaa, joka pussittaa maalauksen…",
    "match.lagDistance": "{name} (teikkauspallo {side}): {cm} cm päätyvallista",
    "match.lagGone": "{name} (teikkauspallo {side}): ei pöydällä",
    "match.lagLeft": "vasemmalla",
    "match.lagRight": "oikealla",
    "match.chose": "{name} valitsi pallon {ball}: {what}.",
    "match.choseW1": "aloittaa",
    "match.choseW2": "asettaa W2:n ensin",
    "ruling.callMissed": "Maalaus {call} ei onnistunut.",
    "inning.title": "Lyöntivuoro tähän asti",
    "replay.scrub": "Siirry lyöntiin",
    "history.strokes": "Lyöntejä",
    "history.won": "{name} voitti",
    "call.cannotScore": "{call} ei voi tuoda pisteitä nyt:",
    "aim.window": "Tähtäys pussittavan ikkunan keskelle (ikkuna {width}°), voima {speed} m/s.",
    "aids.title": "Tähtäysapu",
    "aids.full": "täysi (ennusteineen)",
    "aids.line": "vain viiva",
    "aids.none": "ei apua",
    "preview.pots": "Ennuste: maalattu pallo menee pussiin ({points})",
    "preview.misses": "Ennuste: maalattu pallo ei mene ({points})",
    "preview.noCall": "Ennuste: maalausta ei tehty, joten pisteitä ei tule ({points})",
    "preview.foul": "Ennuste: virhe ({points})",
    "sound.on": "Äänet",
    "sound.off": "Äänet pois",
    "help.title": "Näppäimet ja eleet",
    "help.arrows": "← kääntää tähtäystä vastapäivään, → myötäpäivään, kuten näytöllä näkyy: 0,1° painallukselta, 0,01° pussittavan ikkunan lähellä (kun tähtäysapu on löytänyt sen tai esikatselu sanoo maalauksen menevän); vaihto: 0,01°, Alt: 1°",
    "aim.anticlockwise": "Käännä tähtäystä {step} vastapäivään",
    "aim.clockwise": "Käännä tähtäystä {step} myötäpäivään",
    "help.power": "voima ±0,05 m/s (vaihto: ±0,01)",
    "help.spaceKey": "välilyönti, Enter",
    "help.shoot": "lyönti",
    "help.aim": "tähtää maalattuun pussiin",
    "help.sound": "äänet päälle tai pois",
    "help.help": "tämä ohje",
    "help.dragKey": "vedä pöydällä",
    "help.drag": "tähtää osoittimeen; tähtäysviivan vierestä vetäen suunta kääntyy hienosti (vaihto: vielä hienommin)",
    "help.clickKey": "napauta palloa, pussia",
    "help.click": "maalaa ne",
    "help.pullKey": "vedä lyöntipallon takaa taaksepäin",
    "help.pull": "voima (palkki näyttää m/s): paina keppiviivaa lyöntipallon takana ja vedä poispäin; liukusäätimen alla oleva voimapalkki toimii samoin. Kun lyöntipallon saa siirtää (harjoittelu, käsipallo), itse pallosta vetäen pallo siirtyy",
    "help.tipKey": "lyöntipallon kuva",
    "help.tip": "kierre: mihin kohtaan keu osuu; näppäimistöllä sarkaimella kuvaan ja nuolilla (vaihto: hienommin)",
    "help.move": "nuolet siirtävät sijoitettavaa palloa (käsipalloa, harjoittelun palloja, alkulyönnin palloa; B uudelleen: nuolet tähtäävät). W2:n paikka siirtyy nuolilla suoraan, ja Enter sijoittaa sen",
    "keys.moving": "Nuolet siirtävät palloa {ball} (1 cm painallukselta, vaihto 1 mm, Alt 5 cm). B: tähtää taas.",
    "keys.aiming": "Nuolet tähtäävät taas. B: siirrä palloa.",
    "keys.nothingToMove": "Mitään palloa ei voi nyt siirtää.",
    "keys.moved": "Pallo {ball} siirretty.",
    "stroke.tipLabel": "Mihin kohtaan keu osuu: nuolet siirtävät osumakohtaa",
    "help.close": "Sulje",
    "summary.title": "{name} voitti ottelun",
    "summary.player": "Pelaaja",
    "summary.points": "Pisteet",
    "summary.innings": "Lyöntivuorot",
    "summary.bestRun": "Paras sarja",
    "summary.pots": "Pussitukset / lyönnit",
    "summary.fouls": "Virheet",
    "summary.rematch": "Uusintaottelu",
    "summary.open": "Yhteenveto",
    "summary.newGame": "Uusi peli",
    "summary.replay": "Katso uusinta",
    "match.undoStroke": "Peru lyöntisi {what}",
    "match.undoStrokeAndOne": "Peru lyöntisi {what} ja tietokoneen lyönti",
    "match.undoStrokeAndMany": "Peru lyöntisi {what} ja tietokoneen {n} lyöntiä",
    "match.undoStrokeOf": "Peru lyönti {what} ({name})",
    "match.undoCalled": "”{call}”",
    "match.undoUncalled": "ilman maalausta",
    "match.undoShortCalled": "Peru ”{call}”",
    "match.undoShort": "Peru lyöntisi",
    "match.undoShortOf": "Peru lyönti ({name})",
    "ruling.fouls": "Virheet",
    "ruling.notes": "Huomiot",
    "ruling.clause": "kohta",
    "ruling.byShooter": "{name} ({ball})",
    "ruling.noCall": "ei maalausta",
    "log.title": "Lyönnit",
    "anim.speed": "Animaatio",
    "anim.skip": "Ohita",
    "study.title": "Harjoittelu",
    "study.hint": "Vedä mitä tahansa palloa, myös lyöntipalloa; voiman asetat vetämällä lyöntipallon takaa taaksepäin; poista valinta ottaaksesi pallon pois pöydältä.",
    "study.shooter": "Pöydässä",
    "study.level": "Neuvoja",
    "study.advise": "Neuvo",
    "study.advising": "Neuvoja miettii…",
    "study.back": "Takaisin edelliseen asemaan",
    "study.reset": "Alkuasema",
    "study.prompt": "Harjoittelu: {ball} lyö. Mikä tahansa lyönti ja maalaus; mitään ei tallenneta.",
    "study.noAdvice": "Neuvojalla ei ollut ehdotuksia.",
    "study.safety": "varmistus",
    "study.pPot": "pussitus {p} %",
    "study.ev": "odotusarvo {e} pistettä",
    "study.pFoul": "virhe {p} %",
    "study.leave": "jättö {v}",
    "study.cueMissing": "{ball} ei ole pöydällä: palauta se lyödäksesi.",
    "study.state": "Pelitilanne",
    "study.inHand": "{ball} käsipallona",
    "study.opening": "Aloituslyönti (1.2)",
    "study.twice": "Lyöntivuoron edellinen pussitus: kaisa suoraan keskipussiin (2.1)",
    "study.scores": "Pisteet",
    "study.stateSummary": "{ball} lyö · {w1}–{w2}",
    "study.stateHand": "{ball} käsipallona",
    "study.stateOpening": "aloituslyönti",
    "help.hint": "vihje neuvojalta (ottelussa)",
    "hint.ask": "Vihje",
    "hint.level": "Neuvoja",
    "hint.thinking": "Neuvoja miettii… {s} s",
    "hint.title": "Vihje",
    "hint.odds": "pussitus {p} % · odotusarvo {e} pistettä · virhe {f} %",
    "hint.place": "Aseta ensin {ball} renkaan kohdalle: {head} cm päätyvallista, {side} cm {which} sivuvallista.",
    "hint.left": "vasemmasta",
    "hint.right": "oikeasta",
    "hint.take": "Käytä vihjettä",
    "hint.dismiss": "Hylkää",
    "hint.none": "Neuvojalla ei ollut ehdotuksia.",
    "hint.safety": "Varmistus: ei maalausta, jätä pallot hankalasti vastustajalle.",
    "hint.note": "Vihje ei muuta ottelua eikä sitä kirjata.",
    "log.earlier": "Aiemmat lyönnit löytyvät uusinnasta.",
    "replay.loading": "ladataan…",
    "replay.title": "Uusinta",
    "replay.play": "Toista kaikki",
    "replay.step": "lyönti {i} / {n}",
    "replay.start": "alku",
    "replay.lag": "teikkaus",
    "replay.choose": "{name} ottaa pallon {ball}",
    "replay.place": "W2 asetettu kohtaan ({x}, {y})",
    "replay.shot": "{ball}: {call}, {speed} m/s suuntaan {direction}°",
    "replay.break": "tauko {s} s",
    "replay.prompt": "Ottelu {id}: {a} – {b}",
    "error.generic": "Jokin meni vikaan: {detail}",
  },
};

// Server texts that come only in English (Outcome.notes, lag reasons, Result.reason), by their exact words.
/** @type {Record<string, string>} */
const SERVER_FI = {
  "6: break": "6: tauko",
  "6: five minutes left": "6: viisi minuuttia jäljellä",
  "6: time is up: two final innings each, the W2 player last": "6: aika on täynnä: kummallekin kaksi viimeistä lyöntivuoroa, W2-pelaaja viimeisenä",
  "6: the final innings are played: penalty shoot-out": "6: viimeiset lyöntivuorot on pelattu: rangaistuslyönnit (rankkari)",
  "60 points (3)": "60 pistettä (3)",
  "penalty shoot-out: higher score after the innings (6)": "rankkari: enemmän pisteitä lyöntivuorojen jälkeen (6)",
  "touched another ball (1.1a)": "osui toiseen palloon (1.1a)",
  "touched a long cushion (1.1b)": "osui sivuvalliin (1.1b)",
  "dropped (1.1c)": "meni pussiin (1.1c)",
  "touched an end cushion more than once (1.1d)": "osui päätyvalliin useammin kuin kerran (1.1d)",
  "crossed the long centre line (1.1e)": "ylitti pitkän keskilinjan (1.1e)",
  "never reached the foot cushion: void (1.1)": "ei osunut alapään päätyvalliin: hylätty (1.1)",
  "1.1: lag won by player 1": "1.1: teikkauksen voitti pelaaja 1",
  "1.1: lag won by player 2": "1.1: teikkauksen voitti pelaaja 2",
  "6: shoot-out lag won by player 1": "6: rangaistuslyöntien teikkauksen voitti pelaaja 1",
  "6: shoot-out lag won by player 2": "6: rangaistuslyöntien teikkauksen voitti pelaaja 2",
  "6: W1 starts the penalty shoot-out": "6: W1-pelaaja aloittaa rangaistuslyönnit",
  "6: W2 starts the penalty shoot-out": "6: W2-pelaaja aloittaa rangaistuslyönnit",
  "1.4: W1 forfeits": "1.4: W1-pelaaja on hävinnyt ottelun kohdan 1.4 mukaisesti",
  "1.4: W2 forfeits": "1.4: W2-pelaaja on hävinnyt ottelun kohdan 1.4 mukaisesti",
};


/** @type {Language} */
let current = initialLanguage();
/** @type {Set<(language: Language) => void>} */
const listeners = new Set();

/** @returns {Language} */
function initialLanguage() {
  let stored;
  try {
    stored = localStorage.getItem(STORAGE_KEY);
  } catch {
    stored = null;
  }
  if (stored === "fi" || stored === "en") return stored;
  return (navigator.language || "en").toLowerCase().startsWith("fi") ? "fi" : "en";
}

export function lang() {
  return current;
}

/** @param {string} value "fi" or "en"; anything else is ignored */
export function setLang(value) {
  if (value !== "fi" && value !== "en") return;
  current = value;
  try {
    localStorage.setItem(STORAGE_KEY, value);
  } catch {
    // private mode: the choice lasts for this page only
  }
  applyLabels(document);
  for (const listener of listeners) listener(value);
}

/** @param {(language: Language) => void} listener */
export function onLangChange(listener) {
  listeners.add(listener);
}

/** The label `key` in the current language, with {name} placeholders filled from `vars`. */
/** Add a page's own strings (the club pages keep theirs in club-strings.js).
 * @param {Language} language @param {Record<string, string>} strings */
export function addStrings(language, strings) {
  Object.assign(STRINGS[language], strings);
}

/** @param {string} key @param {Record<string, unknown>} [vars] @returns {string} */
export function t(key, vars = {}) {
  const table = STRINGS[current] || STRINGS.en;
  const text = table[key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));
}

/** A referee item ({fi, en}) in the current language.
 * @param {{ fi?: string, en?: string }} item @returns {string} */
export function ruleText(item) {
  return (current === "fi" ? item.fi : item.en) || item.en || item.fi || "";
}

/** A server text that comes in English only, in the current language when it is known.
 * @param {string | { fi?: string, en?: string } | null | undefined} text @returns {string | null | undefined} */
export function serverText(text) {
  if (text && typeof text === "object") return ruleText(text); // a bilingual {fi, en} text (lag reasons)
  if (current === "fi" && typeof text === "string" && text in SERVER_FI) return SERVER_FI[text];
  const won = current === "fi" && typeof text === "string" && /^(\d+) points \(3\)$/.exec(text); // a target other than 60
  if (won) return `${won[1]} pistettä (3)`;
  return text;
}

/** A kind of player as /api/players gives it.
 * @typedef {{ name: Record<string, string>, description: Record<string, string> }} PlayerKind */

/** @type {Record<string, PlayerKind>} */
let playerKinds = {};

/** The kinds of player from the API (/api/players), each with its names and description in fi and en.
 * @param {Record<string, PlayerKind> | null | undefined} kinds */
export function setPlayerKinds(kinds) {
  playerKinds = kinds || {};
}

/** A player kind's name in the current language (the API's kinds: human, baseline, beginner, club, master).
 * @param {string} level @returns {string} */
export function levelName(level) {
  const kind = playerKinds[level];
  return kind ? kind.name[current] || kind.name.en : level;
}

/** A player's name as a page shows it. A computer player the page named after its level stores the level's
 * id as its name ("Club", any case: the API, the CLI and exports show that); the page shows it as the level's
 * name in the current language ("Seurapelaaja", "Club player"), so a stored match never freezes the language it
 * was started in. A name a person gave is shown as it is.
 * @param {{ name: string, kind: string }} player @returns {string} */
export function playerName(player) {
  const { name, kind } = player;
  if (kind === "human" || !playerKinds[kind] || String(name).toLowerCase() !== String(kind).toLowerCase()) return name;
  const level = levelName(kind);
  return `${level[0].toUpperCase()}${level.slice(1)}`;
}

/** A player kind's description in the current language.
 * @param {string} level @returns {string} */
export function levelDescription(level) {
  const kind = playerKinds[level];
  return kind ? kind.description[current] || kind.description.en : "";
}

/** @param {ParentNode} root */
export function applyLabels(root) {
  document.documentElement.lang = current;
  for (const el of root.querySelectorAll("[data-i18n]")) {
    if (el instanceof HTMLElement) el.textContent = t(el.dataset.i18n ?? "");
  }
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) el.placeholder = t(el.dataset.i18nPlaceholder ?? "");
  }
  for (const el of root.querySelectorAll("[data-i18n-aria]")) {
    if (el instanceof HTMLElement) el.setAttribute("aria-label", t(el.dataset.i18nAria ?? ""));
  }
  for (const el of root.querySelectorAll("[data-lang]")) {
    if (el instanceof HTMLElement) el.setAttribute("aria-pressed", String(el.dataset.lang === current));
  }
}
