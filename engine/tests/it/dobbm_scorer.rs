//! Dobbm scored a second way, by hand from pagat.com's page (`rulesets/dobbm.tarot`, source P), over
//! simulated deals at four and five (the dealer sitting out), every contract, with the doubles drawn
//! (the Schwacher and the Retours, `repeats`) and each stake: the tricks are won again here from the
//! cards (Hearts the trumps, sow, ten, king, ober, unter, 9 to 6), the card points counted, the Dobb
//! given to the declarer (laid away, or unseen in a Solo) unless he took no trick, and the payment
//! worked out and rounded as P's table shows. Each deal is also thrown in (every bid made a pass):
//! at five the new dealer has his Stockerl from each other player, at four nobody pays; and it is
//! abandoned at a revoke (a card that breaks P's obligations, found here from the hands, put in at
//! the first play of the declarer, or of a defender, that could revoke): the offender's side pays half
//! a Match of the game played; and, in an ordinary game, a discard of three cards ends it likewise, the
//! declarer paying. Each deal is simulated from its own seed, so a difference names the
//! seed that reproduces it.
//!
//! `DOBBM_SCORER_GAMES` sets the number of deals per table and stake (default 400), and
//! `DOBBM_SCORER_REPORT=1` prints how often each contract and number of doubles occurred.
//!
//! And the declaration made again (`repeats`): a second Retour by the declarer is his to make only
//! after the defenders answered the first, and without `repeats` it is refused as made twice.

use crate::common::count;
use tarot_testkit::registry;

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::{illegal_variant, random_game_with, replay, ContractChoice, Event, GameRecord, SimOptions, Status, Q};

/// A card's suit (`H` for the trumps, written T1 to T9 or by their heart codes) and its strength in
/// the suit (9 the sow, 1 the six), and its card points.
fn card(code: &str) -> (char, u8, i64) {
    const RANKS: [&str; 9] = ["6", "7", "8", "9", "J", "Q", "K", "10", "1"];
    const POINTS: [i64; 9] = [0, 0, 0, 0, 2, 3, 4, 10, 11];
    if let Some(n) = code.strip_prefix('T') {
        let n: usize = n.parse().expect("a trump");
        return ('H', n as u8, POINTS[n - 1]);
    }
    let (rank, suit) = code.split_at(code.len() - 1);
    let i = RANKS.iter().position(|r| *r == rank).expect("a rank");
    (suit.chars().next().unwrap(), i as u8 + 1, POINTS[i])
}

/// Each player's score, by hand: `None` for a deal with none (thrown in at four).
fn by_hand(rec: &GameRecord) -> Option<BTreeMap<String, Q>> {
    let stake = rec.options.get("stake").and_then(|v| v.as_i64()).unwrap_or(60);
    let mut taker = None;
    let (mut dog, mut laid, mut doubles, mut plays) = (vec![], vec![], 0u32, vec![]);
    for e in &rec.events {
        match e {
            Event::Deal { dog: d, .. } => dog = d.iter().map(|c| c.to_string()).collect(),
            Event::Bid { player, bid } if bid.as_str() != "pass" => taker = Some((player.to_string(), bid.to_string())),
            Event::Discard { cards, .. } => laid = cards.iter().map(|c| c.to_string()).collect(),
            Event::Declare { .. } => doubles += 1,
            Event::Play { player, card } => plays.push((player.to_string(), card.to_string())),
            _ => {}
        }
    }
    let Some((taker, contract)) = taker else { return stockerl(rec, stake) };
    let factor = if contract == "solo" { 2 } else { 1 };
    // A revoke abandons the deal: the offender's side pays half a Match (the stake) of the game
    // played, each defender to the declarer or the declarer to each defender (P "Scoring"); so does a
    // discard of another number of cards than four, the declarer paying.
    let short = rec.events.iter().any(|e| matches!(e, Event::Discard { cards, .. } if cards.len() != 4));
    let revoke = plays_with_hands(rec).into_iter().find(|(_, _, hand, led, c)| revokes(hand, led.as_deref(), c)).map(|(_, p, ..)| p);
    if let Some(offender) = if short { Some(taker.clone()) } else { revoke } {
        let each = stake / 2 * factor * if offender == taker { -1 } else { 1 };
        let defenders = rec.players.len() as i64 - 1;
        return Some(rec.players.iter().map(|p| (p.to_string(), Q::int(if *p == taker { each * defenders } else { -each }))).collect());
    }
    // Four play, whatever the table: tricks of four cards, the highest heart or else the highest of
    // the suit led winning.
    let (mut points, mut tricks) = (0i64, 0);
    for trick in plays.chunks(4) {
        let led = card(&trick[0].1).0;
        let best = trick.iter().max_by_key(|(_, c)| {
            let (suit, strength, _) = card(c);
            (suit == 'H', suit == led, strength)
        });
        if best.expect("a card").0 == taker {
            tricks += 1;
            points += trick.iter().map(|(_, c)| card(c).2).sum::<i64>();
        }
    }
    let extra = if contract == "solo" { &dog } else { &laid };
    points += extra.iter().map(|c| card(c).2).sum::<i64>();
    if tricks == 0 {
        points = 0;
    }
    let margin = (points - 60).abs();
    // Rounded up to the next Schilling before any doubling: margin * stake / 60, up.
    let base = (margin * stake + 59) / 60;
    let each = (points - 60).signum() * base * factor * (1i64 << doubles);
    let defenders = rec.players.len() as i64 - 1;
    Some(rec.players.iter().map(|p| (p.to_string(), Q::int(if *p == taker { each * defenders } else { -each }))).collect())
}

/// Whether a card breaks P's obligations ("verleugnen"): played by a player holding `hand` to a trick
/// led with `led` (none when he leads it), it does not follow suit where he holds the suit led, or,
/// holding none of it, is no heart where he holds one.
fn revokes(hand: &[String], led: Option<&str>, c: &str) -> bool {
    let Some(led) = led else { return false };
    let suit = card(led).0;
    let holds = |s: char| hand.iter().any(|h| card(h).0 == s);
    if holds(suit) {
        card(c).0 != suit
    } else {
        holds('H') && card(c).0 != 'H'
    }
}

/// Each play of `rec`, in order: its event's index, the player, the hand he held before it (as dealt,
/// the declarer's with the Dobb taken and four laid away), the card led to the trick (none when he
/// leads) and the card he played.
type Play = (usize, String, Vec<String>, Option<String>, String);
fn plays_with_hands(rec: &GameRecord) -> Vec<Play> {
    let (mut held, mut dog, mut trick, mut out) = (BTreeMap::<String, Vec<String>>::new(), vec![], vec![], vec![]);
    for (i, e) in rec.events.iter().enumerate() {
        match e {
            Event::Deal { hands, dog: d, .. } => {
                held = hands.iter().map(|(p, h)| (p.to_string(), h.iter().map(|c| c.to_string()).collect())).collect();
                dog = d.iter().map(|c| c.to_string()).collect();
            }
            Event::Discard { player, cards } => {
                let hand = held.get_mut(player.as_str()).expect("a player");
                hand.extend(dog.iter().cloned());
                hand.retain(|c| !cards.iter().any(|d| d.as_str() == c));
            }
            Event::Play { player, card } => {
                let hand = held.get_mut(player.as_str()).expect("a player");
                out.push((i, player.to_string(), hand.clone(), trick.first().cloned(), card.to_string()));
                hand.retain(|c| c != card.as_str());
                trick.push(card.to_string());
                if trick.len() == 4 {
                    trick.clear();
                }
            }
            _ => {}
        }
    }
    out
}

/// `rec` up to the first play of the declarer (or of a defender) at which he held a card that revokes,
/// that card played in its place: the deal ends there.
fn revoked(rec: &GameRecord, declarer: bool) -> Option<GameRecord> {
    let taker = rec.events.iter().filter_map(|e| if let Event::Bid { player, bid } = e { (bid.as_str() != "pass").then(|| player.to_string()) } else { None }).next_back()?;
    plays_with_hands(rec).into_iter().filter(|(_, p, ..)| (*p == taker) == declarer).find_map(|(i, p, hand, led, _)| {
        let bad = hand.iter().find(|c| revokes(&hand, led.as_deref(), c))?;
        let mut out = rec.clone();
        out.events.truncate(i);
        out.events.push(Event::Play { player: p.as_str().into(), card: bad.as_str().into() });
        Some(out)
    })
}

/// A deal thrown in, everyone having passed: at five the deal passes to the left, to the first to
/// speak, who has a Stockerl from each other player (the one who sat out too), what 10 card points
/// win in an ordinary game, rounded up as they are; at four nobody pays (P "Bidding", "Scoring").
fn stockerl(rec: &GameRecord, stake: i64) -> Option<BTreeMap<String, Q>> {
    if rec.players.len() != 5 {
        return None;
    }
    let dealer = rec.events.iter().find_map(|e| if let Event::Bid { player, .. } = e { Some(player.to_string()) } else { None })?;
    let each = (10 * stake + 59) / 60;
    Some(rec.players.iter().map(|p| (p.to_string(), Q::int(if *p == dealer { 4 * each } else { -each }))).collect())
}

#[test]
fn the_engine_scores_dobbm_as_the_source_does() {
    let rules = registry().get("dobbm").unwrap();
    let games = count("DOBBM_SCORER_GAMES", 400);
    let (mut differences, mut tally) = (vec![], BTreeMap::<String, u64>::new());
    for (n, stake) in [(4, 60), (5, 60), (4, 12), (4, 6), (5, 240), (5, 12)] {
        let options = BTreeMap::from([("stake".to_string(), serde_json::json!(stake))]);
        for seed in 0..games {
            let sim = SimOptions { contract: ContractChoice::Even, announce: 0.6, ..SimOptions::steered() };
            let rec = random_game_with(rules, n, &options, &sim, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
            // The same deal thrown in, every bid made a pass: scored too (the Stockerl at five).
            let mut thrown = rec.clone();
            let passes: Vec<Event> =
                rec.events.iter().filter_map(|e| if let Event::Bid { player, .. } = e { Some(Event::Bid { player: player.clone(), bid: "pass".into() }) } else { None }).collect();
            thrown.events.truncate(1);
            thrown.events.extend(passes);
            // And the same deal abandoned at a revoke, by the declarer in one deal, a defender in the next.
            let declarer = seed % 2 == 0;
            let revoke = revoked(&rec, declarer);
            // And, in an ordinary game, laid away three cards instead of four.
            let short = rec.events.iter().position(|e| matches!(e, Event::Discard { .. })).map(|at| {
                let mut short = rec.clone();
                if let Event::Discard { cards, .. } = &mut short.events[at] {
                    cards.pop();
                }
                short.events.truncate(at + 1);
                short
            });
            for (revoke, rec) in [(false, Some(rec)), (false, Some(thrown)), (true, revoke), (true, short)] {
                let Some(rec) = rec else { continue };
                let v = replay(rules, &rec).unwrap();
                let engine = v.outcome.as_ref().map(|o| o.players.iter().map(|p| (p.player.to_string(), p.score)).collect::<BTreeMap<String, Q>>());
                let mine = by_hand(&rec);
                if v.status == Status::Annulled {
                    *tally.entry(format!("thrown in at {n}")).or_default() += 1;
                    if engine != mine {
                        differences.push(format!("{n} players, stake {stake}, seed {seed} --steer, thrown in: engine {engine:?}, by hand {mine:?}"));
                    }
                    continue;
                }
                assert_eq!(v.status, Status::Valid, "seed {seed}: {}", v.to_text());
                assert!(mine.is_some(), "seed {seed}: a declarer");
                if engine != mine {
                    differences.push(format!("{n} players, stake {stake}, seed {seed} --steer: engine {engine:?}, by hand {mine:?}"));
                }
                if revoke {
                    assert!(v.next.is_none(), "seed {seed}: {}", v.to_text());
                    let short = rec.events.last().is_some_and(|e| matches!(e, Event::Discard { .. }));
                    let what = if short { "a discard of three".to_string() } else { format!("revoke by {}", if declarer { "the declarer" } else { "a defender" }) };
                    *tally.entry(format!("{what} at {n}")).or_default() += 1;
                    continue;
                }
                let doubles = rec.events.iter().filter(|e| matches!(e, Event::Declare { .. })).count();
                let contract = v.outcome.as_ref().and_then(|o| o.contract.clone()).unwrap_or_default();
                *tally.entry(format!("{contract}, {} doubles", doubles.min(4))).or_default() += 1;
            }
        }
    }
    if std::env::var("DOBBM_SCORER_REPORT").is_ok() {
        println!("dobbm: {games} deals a table and stake, by contract and doubles (4 or more together): {tally:?}");
    }
    assert!(differences.is_empty(), "{} differences:\n{}", differences.len(), differences.join("\n"));
    // The rare cases are reached: both contracts, the doubles up to a second Retour, deals thrown in,
    // and revokes on both sides.
    let cases = ["dobbm, 0 doubles", "solo, 0 doubles", "dobbm, 1 doubles", "dobbm, 2 doubles", "dobbm, 4 doubles", "thrown in at 4", "thrown in at 5"];
    let revokes = [
        "revoke by the declarer at 4",
        "revoke by a defender at 4",
        "revoke by the declarer at 5",
        "revoke by a defender at 5",
        "a discard of three at 4",
        "a discard of three at 5",
    ];
    for case in cases.into_iter().chain(revokes) {
        assert!(tally.contains_key(case), "{case} never reached: {tally:?}");
    }
}

#[test]
fn a_retour_is_said_again_only_in_answer_and_each_doubles_the_game() {
    let rules = registry().get("dobbm").unwrap();
    let read = |name: &str| -> GameRecord { serde_json::from_str(&std::fs::read_to_string(format!("{}/../fixtures/dobbm/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()).unwrap() };
    // Four doubles: Schwacher, Retour, Retour, Retour; the game paid 16 times its margin.
    let twice = read("valid/retour-twice.json");
    let v = replay(rules, &twice).unwrap();
    assert_eq!(v.status, Status::Valid, "{}", v.to_text());
    let o = v.outcome.as_ref().unwrap();
    let value = |k: &str| o.values.iter().find(|(n, _)| &**n == k).unwrap().1.to_string();
    assert_eq!(value("doubles"), "4");
    let margin: i64 = value("margin").parse().unwrap();
    assert_eq!(o.hand_score, Some(Q::int(-16 * margin)));
    // The declarer's second Retour before the defenders answered: refused.
    let bad = read("invalid/declaration.retour.require.1--twice-running.json");
    let v = replay(rules, &bad).unwrap();
    assert_eq!(v.violation.as_ref().map(|x| x.rule.to_string()).as_deref(), Some("declaration.retour.require.1"));
    // Past 48 declarations made again the record is refused as the archive's limit (an input error,
    // not a ruleset that cannot score), before the doubles pass what the numbers hold.
    let many = read("malformed/doubled-past-the-numbers.json");
    let e = replay(rules, &many).expect_err("refused");
    assert!(e.ruleset_fault.is_none(), "{e}");
    assert!(e.message.contains("past the 48 declarations made again"), "{e}");
    // At the limit, the game stopped before the first card: no Retour is offered any more, the
    // declarations open being those `declare` would accept.
    let mut at_limit = many.clone();
    let first_play = at_limit.events.iter().position(|e| matches!(e, Event::Play { .. })).expect("a card played");
    let mut made = 0;
    at_limit.events.retain(|e| match e {
        Event::Declare { declaration, .. } if &**declaration != "schwacher" => {
            made += 1;
            made <= 48
        }
        _ => true,
    });
    at_limit.events.truncate(first_play - (81 - 1 - 48));
    let v = replay(rules, &at_limit).unwrap();
    assert_eq!(v.status, Status::InProgress, "{}", v.to_text());
    let open: Vec<String> = v.next.as_ref().unwrap().declarations.iter().map(|d| d.declaration.to_string()).collect();
    assert!(!open.iter().any(|d| d.contains("retour")), "{open:?}");
    // Without `repeats`, the same declarer may not say Retour twice at all.
    let text = std::fs::read_to_string(format!("{}/../rulesets/dobbm.tarot", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let once = text.replacen("  repeats                                             @P \"Schwacher\"\n  require \"after a Schwacher", "  require \"after a Schwacher", 1);
    assert_ne!(once, text);
    let file = tarot_engine::RuleFile { path: "dobbm.tarot".into(), text: once };
    let once = tarot_engine::compile("dobbm", &|id: &str| (id == "dobbm").then(|| file.clone())).unwrap_or_else(|d| panic!("{d}"));
    let v = replay(&once, &twice).unwrap();
    let violation = v.violation.expect("refused");
    assert_eq!(&*violation.rule, "declaration.retour");
    assert!(violation.message.contains("has already declared"), "{}", violation.message);
}

#[test]
fn a_revoke_is_found_at_a_table_seated_otherwise_than_listed_and_ends_the_deal() {
    // Dobbm plays clockwise, and at five the dealer sits out: the records list the players otherwise
    // than the seats go round. A card its player may not play is a revoke, found at the player who
    // played it, and the deal ends there: no card is refused (the simulator's bad cards find none).
    let rules = registry().get("dobbm").unwrap();
    for n in [4, 5] {
        for declarer in [false, true] {
            let mut rng = ChaCha8Rng::seed_from_u64(7);
            let found = (0..40).find_map(|_| {
                let rec = random_game_with(rules, n, &BTreeMap::new(), &SimOptions::default(), &mut rng).ok()?;
                revoked(&rec, declarer).map(|bad| (rec, bad))
            });
            let (rec, bad) = found.unwrap_or_else(|| panic!("no revoke found at {n}"));
            assert!(illegal_variant(rules, &rec, &mut rng).is_none(), "{n} players: a card refused");
            let v = replay(rules, &bad).unwrap();
            assert_eq!(v.status, Status::Valid, "{}", v.to_text());
            let Some(Event::Play { player, .. }) = bad.events.last() else { panic!("a card") };
            let note = v.notes.iter().find(|x| x.contains("the deal ends there")).unwrap_or_else(|| panic!("{}", v.to_text()));
            assert!(note.contains(&format!("{player} played")), "{note}");
            assert!(!v.ledger.is_empty() && v.ledger.iter().all(|l| l.rule.starts_with("play.fault.")), "{}", v.to_text());
        }
    }
}
