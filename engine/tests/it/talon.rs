//! The talon and the discard, checked on replayed games of the small rule files in `tests/rules/`:
//! settings after the auction that read the contract (G3), requirements over the discard, the hand left
//! and the dog (G2), and the discard's owner decided by the play (N5). Each test plays seeded random
//! games (the simulator must keep to the rules), then changes a move and checks the verdict.

use std::collections::BTreeMap;
use std::path::Path;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::{compile, Diagnostics, RuleFile};
use tarot_engine::{random_game_with, SimOptions};
use tarot_engine::{replay, Event, GameRecord, Phase, Registry, Status, Verdict};

/// The built-in rule files and those of `tests/rules/`, with `text` in place of the file `id` if given.
fn files() -> BTreeMap<String, RuleFile> {
    let mut files = Registry::builtin_files();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rules");
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let p = e.path();
        // tests/rules/ also holds folders of rule files for other tests (pack/).
        if p.extension().is_none_or(|x| x != "tarot") {
            continue;
        }
        let id = p.file_stem().unwrap().to_string_lossy().to_string();
        files.insert(id.clone(), RuleFile { path: format!("engine/tests/rules/{id}.tarot"), text: std::fs::read_to_string(&p).unwrap() });
    }
    files
}

fn compiled(id: &str) -> Ruleset {
    let files = files();
    compile(id, &|id: &str| files.get(id).cloned()).unwrap_or_else(|d| panic!("{d}"))
}

/// Compiles `id` with `find` replaced by `replace` in its file: the diagnostics.
fn refused(id: &str, find: &str, replace: &str) -> Diagnostics {
    let mut files = files();
    let f = files.get_mut(id).unwrap();
    assert_eq!(f.text.matches(find).count(), 1, "{find}");
    f.text = f.text.replace(find, replace);
    match compile(id, &|id: &str| files.get(id).cloned()) {
        Ok(_) => panic!("`{replace}` compiled"),
        Err(d) => d,
    }
}

/// Seeded random games (each contract as likely), each with its verdict; the simulator's games are
/// never invalid.
fn games(rules: &Ruleset, n: usize, count: usize) -> Vec<(GameRecord, Verdict)> {
    games_with(rules, n, count, &SimOptions::steered())
}

fn games_with(rules: &Ruleset, n: usize, count: usize, sim: &SimOptions) -> Vec<(GameRecord, Verdict)> {
    let mut rng = ChaCha8Rng::seed_from_u64(15);
    (0..count)
        .map(|_| {
            let g = random_game_with(rules, n, &BTreeMap::new(), sim, &mut rng).unwrap();
            let v = replay(rules, &g).unwrap();
            assert_ne!(v.status, Status::Invalid, "the simulator broke {:?}", v.violation);
            (g, v)
        })
        .filter(|(_, v)| v.status == Status::Valid)
        .collect()
}

/// The same game, replayed under other rules.
fn replay_as(rules: &Ruleset, g: &GameRecord) -> Verdict {
    let mut g = g.clone();
    g.ruleset = rules.id.clone();
    replay(rules, &g).unwrap()
}

fn contract(v: &Verdict) -> String {
    v.outcome.as_ref().and_then(|o| o.contract.clone()).unwrap_or_default()
}

fn taker(v: &Verdict) -> String {
    v.outcome.as_ref().and_then(|o| o.taker.as_deref().map(str::to_string)).unwrap_or_default()
}

/// The index of the taker's discard event, and its cards.
fn discard_of(g: &GameRecord, who: &str) -> Option<(usize, Vec<String>)> {
    g.events.iter().enumerate().find_map(|(i, e)| match e {
        Event::Discard { player, cards } if player.as_str() == who => Some((i, cards.iter().map(|c| c.to_string()).collect())),
        _ => None,
    })
}

fn with_discard(g: &GameRecord, at: usize, cards: &[String]) -> GameRecord {
    let mut g = g.clone();
    if let Event::Discard { cards: c, .. } = &mut g.events[at] {
        *c = cards.iter().map(|x| x.as_str().into()).collect();
    }
    g
}

/// The taker's hand once the dog is taken: what he was dealt and the dog.
fn taker_cards(g: &GameRecord, who: &str) -> Vec<String> {
    match &g.events[0] {
        Event::Deal { hands, dog, .. } => hands[who].iter().chain(dog.iter()).map(|c| c.to_string()).collect(),
        _ => unreachable!(),
    }
}

fn dog(g: &GameRecord) -> Vec<String> {
    match &g.events[0] {
        Event::Deal { dog, .. } => dog.iter().map(|c| c.to_string()).collect(),
        _ => unreachable!(),
    }
}

fn is_trump(c: &str) -> bool {
    c.starts_with('T')
}

/// Kings and oudlers may never go (fft-4p's `forbid`).
fn forbidden(c: &str) -> bool {
    c.starts_with('K') || c == "T1" || c == "T21" || c == "EX"
}

#[test]
fn the_contract_decides_overtrumping_and_the_leader() {
    let rules = compiled("talon-contract");
    let fft = compiled("fft-4p");
    let (mut undertrumped, mut led_by_taker) = (0, 0);
    for (g, v) in games(&rules, 4, 300) {
        let c = contract(&v);
        // The same game under fft-4p, where every contract must overtrump.
        let under_fft = replay_as(&fft, &g);
        if under_fft.status == Status::Invalid {
            let rule = under_fft.violation.as_ref().unwrap().rule.to_string();
            if rule == "play.must.overtrump" {
                assert_eq!(c, "prise", "only a prise is free from overtrumping");
                undertrumped += 1;
            }
        }
        let first = g.events.iter().find_map(|e| if let Event::Play { player, .. } = e { Some(player.to_string()) } else { None }).unwrap();
        if c == "garde-sans" || c == "garde-contre" {
            assert_eq!(first, taker(&v), "the taker leads a contract of multiplier 4 or more");
            led_by_taker += 1;
        }
    }
    assert!(undertrumped > 0 && led_by_taker > 0, "{undertrumped} prises not overtrumping, {led_by_taker} games led by the taker");
}

#[test]
fn a_discard_requirement_reads_the_contract() {
    let rules = compiled("talon-contract");
    let (mut refused_in_garde, mut allowed_in_prise) = (0, 0);
    for (g, v) in games(&rules, 4, 300) {
        let who = taker(&v);
        let Some((at, cards)) = discard_of(&g, &who) else { continue };
        // Two queens laid away where he laid away none.
        let queens: Vec<String> = taker_cards(&g, &who).into_iter().filter(|c| c.starts_with('Q')).collect();
        let out: Vec<usize> = (0..cards.len()).filter(|&i| !is_trump(&cards[i])).collect();
        if queens.len() < 2 || out.len() < 2 || cards.iter().any(|c| c.starts_with('Q')) {
            continue;
        }
        let mut changed = cards.clone();
        changed[out[0]] = queens[0].clone();
        changed[out[1]] = queens[1].clone();
        let after = replay(&rules, &with_discard(&g, at, &changed)).unwrap();
        let stopped_at_discard = after.violation.as_ref().filter(|x| x.event == at);
        if contract(&v) == "prise" {
            assert!(stopped_at_discard.is_none(), "a prise may discard two queens: {:?}", after.violation);
            allowed_in_prise += 1;
        } else {
            let x = stopped_at_discard.unwrap_or_else(|| panic!("a {} may not discard two queens: {:?}", contract(&v), after.violation));
            assert_eq!(&*x.rule, "discard.require.1");
            assert!(x.message.contains("at most one queen in the discard of a garde or more"), "{}", x.message);
            refused_in_garde += 1;
        }
    }
    assert!(refused_in_garde > 0 && allowed_in_prise > 0, "{refused_in_garde} refused, {allowed_in_prise} allowed");
}

#[test]
fn a_discard_requirement_reads_the_hand_left_and_the_dog() {
    let rules = compiled("talon-discard");
    let (mut one_trump, mut the_dog) = (0, 0);
    // The uniform simulator: a strong hand (a run of trumps) whose only plain cards are the dog's
    // could lay nothing away under these two requirements together.
    for (g, v) in games_with(&rules, 4, 200, &SimOptions::default()) {
        let who = taker(&v);
        let Some((at, cards)) = discard_of(&g, &who) else { continue };
        let held = taker_cards(&g, &who);
        // One trump laid away while he keeps others: "a trump only if that leaves him none".
        let trumps: Vec<&String> = held.iter().filter(|c| is_trump(c) && !forbidden(c)).collect();
        if let (true, Some(out)) = (trumps.len() >= 2 && !cards.iter().any(|c| is_trump(c)), cards.iter().position(|c| !dog(&g).contains(c))) {
            let mut changed = cards.clone();
            changed[out] = trumps[0].clone();
            let x = replay(&rules, &with_discard(&g, at, &changed)).unwrap().violation.unwrap();
            assert_eq!((x.event, &*x.rule), (at, "discard.require.1"), "{}", x.message);
            one_trump += 1;
        }
        // The dog laid away as it came: "not the dog itself laid away again".
        let from_dog: Vec<String> = dog(&g).into_iter().filter(|c| !is_trump(c) && !forbidden(c)).collect();
        if from_dog.len() == 6 && cards.len() == 6 {
            let changed = from_dog;
            {
                let x = replay(&rules, &with_discard(&g, at, &changed)).unwrap().violation.unwrap();
                assert_eq!((x.event, &*x.rule), (at, "discard.require.2"), "{}", x.message);
                the_dog += 1;
            }
        }
    }
    assert!(one_trump > 0 && the_dog > 0, "{one_trump} one-trump discards, {the_dog} discards of the dog itself");
}

#[test]
fn the_discard_goes_where_the_play_says() {
    let rules = compiled("talon-goes-to");
    let base = compiled("basic-partners");
    let (mut moved, mut kept, mut changed_score) = (0, 0, 0);
    for (g, v) in games(&rules, 4, 200) {
        let dealer = g.dealer.to_string();
        let side: Vec<String> = {
            let i = g.players.iter().position(|p| *p == dealer).unwrap();
            vec![g.players[i].clone(), g.players[(i + 2) % 4].clone()]
        };
        let won = v.tricks.iter().filter(|t| side.iter().any(|p| **p == *t.winner)).count();
        let note = v.notes.iter().any(|n| n.contains("discard goes to the opponents"));
        assert_eq!(note, won * 2 < v.tricks.len(), "{won} of {} tricks: {:?}", v.tricks.len(), v.notes);
        if note {
            moved += 1;
            let before = replay_as(&base, &g);
            let score = |v: &Verdict| v.outcome.as_ref().unwrap().players.iter().map(|p| p.score).collect::<Vec<_>>();
            if score(&before) != score(&v) {
                changed_score += 1;
            }
        } else {
            kept += 1;
        }
    }
    assert!(moved > 0 && kept > 0 && changed_score > 0, "{moved} moved ({changed_score} changing the score), {kept} kept");
}

#[test]
fn the_contract_is_refused_where_it_is_not_known_yet() {
    let d = refused("talon-contract", "extends fft-4p\n", "extends fft-4p\ndeal {\n  dog = 6 + contract.multiplier\n}\n");
    assert!(d.to_string().contains("`contract.multiplier` is not known before the deal"), "{d}");
    let d = refused("talon-contract", "extends fft-4p\n", "extends fft-4p\nplay {\n  direction = contract.name\n}\n");
    assert!(d.to_string().contains("the contract is known once the auction is won"), "{d}");
    let d = refused("talon-goes-to", "if won(side(player)) * 2 < count(tricks) then \"opponents\" else \"discarder\"", "\"the opponents\"");
    assert!(d.to_string().contains("`goes-to` is \"discarder\" or \"opponents\", not the opponents"), "{d}");
    let d = refused("talon-discard", "not has(discarded, dog)", "not has(discarded, dog) and count(tricks) > 0");
    assert!(d.to_string().contains("`tricks` is not known in the discard's `require`"), "{d}");
}

/// The index of the taker's `take` event, and its cards.
fn take_of(g: &GameRecord) -> Option<(usize, Vec<String>)> {
    g.events.iter().enumerate().find_map(|(i, e)| match e {
        Event::Take { cards, .. } => Some((i, cards.iter().map(|c| c.to_string()).collect())),
        _ => None,
    })
}

#[test]
fn the_taker_takes_one_packet_of_the_talon() {
    let rules = compiled("talon-halves");
    let (mut halves, mut whole) = (0, 0);
    for (g, v) in games(&rules, 3, 200) {
        let who = taker(&v);
        let Some((at, cards)) = discard_of(&g, &who) else { continue };
        let dog = dog(&g);
        match take_of(&g) {
            Some((taken_at, taken)) => {
                assert_eq!(contract(&v), "prise");
                assert!(taken_at < at, "the packet is taken before the discard");
                let sorted = |x: &[String]| {
                    let mut x = x.to_vec();
                    x.sort();
                    x
                };
                assert!(sorted(&taken) == sorted(&dog[..3]) || sorted(&taken) == sorted(&dog[3..]), "{taken:?} is a half of {dog:?}");
                assert_eq!(cards.len(), 3, "a half taken, three laid away");
                assert!(v.notes.iter().any(|n| n.contains("the rest goes to the defence")), "{:?}", v.notes);
                halves += 1;
                // A packet that is not one of the halves.
                let mixed = [dog[0].clone(), dog[4].clone(), dog[5].clone()];
                let mut bad = g.clone();
                bad.events[taken_at] = Event::Take { player: who.as_str().into(), cards: mixed.iter().map(|c| c.as_str().into()).collect() };
                let x = replay(&rules, &bad).unwrap().violation.unwrap();
                assert_eq!((x.event, &*x.rule), (taken_at, "talon"), "{}", x.message);
                assert!(x.message.contains("which is not one of the talon's packets"), "{}", x.message);
                // No packet taken: the discard waits for it.
                let mut skipped = g.clone();
                skipped.events.remove(taken_at);
                let x = replay(&rules, &skipped).unwrap().violation.unwrap();
                assert_eq!((x.event, &*x.rule), (at - 1, "talon"), "{}", x.message);
                assert!(x.message.contains("must first take a packet of the talon"), "{}", x.message);
            }
            None => {
                assert_eq!(contract(&v), "garde", "only the prise and the garde take the dog");
                assert_eq!(cards.len(), 6);
                whole += 1;
            }
        }
    }
    assert!(halves > 0 && whole > 0, "{halves} halves, {whole} whole dogs");
}

#[test]
fn the_talon_left_counts_for_the_side_the_rules_say() {
    let defence = compiled("talon-halves");
    let mut files = files();
    let f = files.get_mut("talon-halves").unwrap();
    f.text = f.text.replace("rest = \"defence\"", "rest = \"taker\"");
    let taker_side = compile("talon-halves", &|id: &str| files.get(id).cloned()).unwrap();
    let points = |v: &Verdict| v.outcome.as_ref().and_then(|o| o.value("points")).and_then(|x| x.as_f64()).unwrap();
    let mut more = 0;
    for (g, v) in games(&defence, 3, 100) {
        if take_of(&g).is_none() {
            continue;
        }
        let w = replay(&taker_side, &g).unwrap();
        assert!(w.notes.iter().any(|n| n.contains("the rest goes to the taker's pile")), "{:?}", w.notes);
        assert!(points(&w) >= points(&v), "the half left adds to the taker's points");
        if points(&w) > points(&v) {
            more += 1;
        }
    }
    assert!(more > 0);
}

#[test]
fn the_talon_is_refused_where_it_cannot_be_taken() {
    let d = refused("talon-halves", "  packets = contract.talon\n", "");
    assert!(d.to_string().contains("the talon needs `packets = N`"), "{d}");
    let d = refused("talon-halves", "rest = \"defence\"", "rest = \"dealer\"");
    assert!(d.to_string().contains("`rest` is one of \"defence\", \"taker\", not \"dealer\""), "{d}");
    let rules = compiled("talon-halves");
    let mut files = files();
    let f = files.get_mut("talon-halves").unwrap();
    f.text = f.text.replace("{ talon = 2 }", "{ talon = 4 }");
    let odd = compile("talon-halves", &|id: &str| files.get(id).cloned()).unwrap();
    let e = tarot_engine::Setup::new(&odd, 3, &BTreeMap::new()).err().unwrap();
    assert!(e.contains("the dog of 6 cards cannot be cut into 4 packets of equal size"), "{e}");
    assert!(tarot_engine::Setup::new(&rules, 3, &BTreeMap::new()).is_ok());
}

#[test]
fn the_dog_is_dealt_after_the_first_round() {
    let rules = compiled("talon-halves");
    let mut checked = 0;
    for (g, v) in games(&rules, 3, 40) {
        let Event::Deal { packets, .. } = &g.events[0] else { unreachable!() };
        // Three players' packets of eight, then the dog's six, then the other two rounds.
        assert_eq!(packets.iter().position(|p| p.to.is_none()), Some(3), "{packets:?}");
        assert_ne!(v.status, Status::Invalid);
        // The dog dealt after the second round instead.
        let mut late = g.clone();
        let Event::Deal { packets, .. } = &mut late.events[0] else { unreachable!() };
        let dog = packets.remove(3);
        packets.insert(6, dog);
        let x = replay(&rules, &late).unwrap().violation.unwrap();
        assert_eq!((x.event, &*x.rule), (0, "deal.dog_after"), "{}", x.message);
        assert!(x.message.contains("after 6 packets to players; the dog is dealt after 1 round(s), the first 3"), "{}", x.message);
        checked += 1;
    }
    assert!(checked > 0);
}

#[test]
fn a_take_event_is_read_by_the_quick_reader_as_by_serde() {
    let rules = compiled("talon-halves");
    let (g, _) = games(&rules, 3, 40).into_iter().find(|(g, _)| take_of(g).is_some()).expect("a prise");
    let json = serde_json::to_string(&g).unwrap();
    assert!(json.contains(r#"{"type":"take","player":"#), "{json}");
    let quick = tarot_engine::read_quick(json.as_bytes()).expect("the quick reader reads a take");
    let slow: GameRecord = serde_json::from_str(&json).unwrap();
    assert_eq!(quick, slow);
    assert_eq!(quick, g);
}

#[test]
fn the_taker_may_discard_before_he_sees_the_talon() {
    let rules = compiled("talon-discard-first");
    let mut checked = 0;
    for (g, v) in games(&rules, 3, 100) {
        let who = taker(&v);
        let Some((at, cards)) = discard_of(&g, &who) else { continue };
        let dog = dog(&g);
        assert!(cards.iter().all(|c| !dog.contains(c)), "a discard of cards he has not seen: {cards:?}, dog {dog:?}");
        // A card of the dog in the discard: he does not hold it yet.
        let Some(from_dog) = dog.iter().find(|c| !is_trump(c) && !forbidden(c)) else { continue };
        let mut changed = cards.clone();
        changed[0] = from_dog.clone();
        let x = replay(&rules, &with_discard(&g, at, &changed)).unwrap().violation.unwrap();
        assert_eq!((x.event, &*x.rule), (at, "discard"), "{}", x.message);
        assert!(x.message.contains("which") && x.message.contains("does not hold"), "{}", x.message);
        checked += 1;
    }
    assert!(checked > 0);
}

/// The player's first card: the event's index.
fn first_card_of(g: &GameRecord, who: &str) -> Option<usize> {
    g.events.iter().position(|e| matches!(e, Event::Play { player, .. } if &**player == who))
}

#[test]
fn the_taker_gets_the_given_packet_unseen() {
    let rules = compiled("talon-given-unseen");
    let chosen = compiled("talon-halves");
    let (mut takes, mut shows) = (0, 0);
    for (g, v) in games(&rules, 3, 200) {
        let Some((at, taken)) = take_of(&g) else { continue };
        let who = taker(&v);
        let dog = dog(&g);
        let sorted = |x: &[String]| {
            let mut x = x.to_vec();
            x.sort();
            x
        };
        assert_eq!(sorted(&taken), sorted(&dog[..3]), "the first half, with no choice");
        assert!(v.notes.iter().any(|n| n.contains("from the talon, unseen; the rest goes to the defence, unseen (talon.unseen)")), "{:?}", v.notes);
        takes += 1;
        // The other half: his choice under talon-halves, refused here.
        let mut other = g.clone();
        other.events[at] = Event::Take { player: who.as_str().into(), cards: dog[3..].iter().map(|c| c.as_str().into()).collect() };
        let x = replay(&rules, &other).unwrap().violation.unwrap();
        assert_eq!((x.event, &*x.rule), (at, "talon.given"), "{}", x.message);
        assert!(x.message.contains("gets packet 1 of the talon") && x.message.contains("with no choice"), "{}", x.message);
        assert_ne!(replay_as(&chosen, &other).violation.map(|x| x.rule.to_string()), Some("talon.given".into()));
        // A poignée that shows a trump he took: refused, whatever else the show is.
        let Some(trump) = taken.iter().find(|c| is_trump(c)) else { continue };
        let Some(first) = first_card_of(&g, &who) else { continue };
        if g.events.iter().any(|e| matches!(e, Event::Declare { player, .. } if **player == who)) {
            continue;
        }
        let mut shown = g.clone();
        shown.events.insert(first, Event::Declare { player: who.as_str().into(), declaration: "poignee".into(), cards: vec![trump.as_str().into()] });
        let x = replay(&rules, &shown).unwrap().violation.unwrap();
        assert_eq!((x.event, &*x.rule), (first, "talon.unseen"), "{}", x.message);
        assert!(x.message.contains("taken unseen from the talon"), "{}", x.message);
        // Shown in the open talon, the same card breaks only the poignée's own rule.
        let y = replay_as(&chosen, &shown).violation.unwrap();
        assert!(y.rule.starts_with("declaration.poignee"), "{}", y.rule);
        shows += 1;
    }
    assert!(takes > 0 && shows > 0, "{takes} takes, {shows} shows");
    // `next` offers the given packet alone.
    let (g, _) = games(&rules, 3, 50).into_iter().find(|(g, _)| take_of(g).is_some()).unwrap();
    let (at, taken) = take_of(&g).unwrap();
    let mut before = g.clone();
    before.events.truncate(at);
    let next = replay(&rules, &before).unwrap().next.unwrap();
    assert_eq!(next.phase, Phase::Take);
    assert_eq!(next.packets.len(), 1);
    let mut offered = next.packets[0].clone();
    offered.sort();
    let mut taken = taken;
    taken.sort();
    assert_eq!(offered, taken);
}

#[test]
fn the_given_packet_is_refused_where_it_cannot_be() {
    let d = refused("talon-given-unseen", "  unseen\n", "  unseen = yes\n");
    assert!(d.to_string().contains("`unseen`"), "{d}");
    let d = refused("talon-given-unseen", "  given = 1\n", "  given\n");
    assert!(d.to_string().contains("`given` needs a value") || d.to_string().contains("`given = number of the packet"), "{d}");
    // A constant that names no packet is refused where it is written, not when a game is set up; a
    // constant 0 (the taker's choice, as without it) would change nothing.
    for (bad, why) in [("given = \"top\"", "not a text"), ("given = 1.5", "not 1.5"), ("given = -1", "not -1"), ("given = 0", "`given = 0` leaves the taker his choice")] {
        let d = refused("talon-given-unseen", "given = 1", bad);
        assert!(d.to_string().contains(why) && d.to_string().contains("talon-given-unseen.tarot:9:"), "{bad}: {d}");
    }
    let mut files = files();
    let f = files.get_mut("talon-given-unseen").unwrap();
    f.text = f.text.replace("given = 1", "given = 3");
    let three = compile("talon-given-unseen", &|id: &str| files.get(id).cloned()).unwrap();
    let e = tarot_engine::Setup::new(&three, 3, &BTreeMap::new()).err().unwrap();
    assert!(e.contains("the talon's `given` names packet 3, but it is cut into 2 packets"), "{e}");
    let text = tarot_engine::describe(&compiled("talon-given-unseen"), &BTreeMap::new()).to_text();
    assert!(text.contains("the talon is not turned up"), "{text}");
    assert!(text.contains("the taker gets, with no choice, the packet numbered"), "{text}");
}

#[test]
fn an_announcement_may_be_made_with_a_card_taken_unseen() {
    // tapp-tarock-1821: the Dreyer who bought the Pagat unseen may still announce the Ultimo, which
    // shows no card; once the hand is over (the honours are claimed after the last trick), showing it
    // no longer breaks talon.unseen.
    let rules = compiled("tapp-tarock-1821");
    let mut tried = 0;
    for (g, v) in games(&rules, 3, 300) {
        let Some((_, taken)) = take_of(&g) else { continue };
        if !taken.iter().any(|c| c == "T1") || g.events.iter().any(|e| matches!(e, Event::Declare { .. })) {
            continue;
        }
        let who = taker(&v);
        let first = g.events.iter().position(|e| matches!(e, Event::Play { .. })).unwrap();
        let mut ultimo = g.clone();
        ultimo.events.insert(first, Event::Declare { player: who.as_str().into(), declaration: "ultimo".into(), cards: vec![] });
        let w = replay(&rules, &ultimo).unwrap();
        assert!(w.violation.as_ref().is_none_or(|x| x.event != first), "{:?}", w.violation);
        let mut shown = g.clone();
        shown.events.push(Event::Declare { player: who.as_str().into(), declaration: "trull_bonus".into(), cards: vec!["T1".into()] });
        let x = replay(&rules, &shown).unwrap().violation.unwrap();
        assert!(x.rule.starts_with("declaration.trull_bonus"), "{}: {}", x.rule, x.message);
        tried += 1;
    }
    assert!(tried > 0);
}
