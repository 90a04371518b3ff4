//! Records as an attacker sends them: every valid fixture of every ruleset, mutated by a seeded
//! generator (an event dropped, repeated, moved one place or given to another player, a card played
//! changed for another card of the pack, a bid or a declaration of the ruleset slipped in, two cards
//! of the deal swapped, another dealer, an option given another of its choices, the record cut short),
//! and replayed. Whatever the record:
//! - replay neither panics nor blames the rules: a built-in ruleset referees any record, and an error
//!   with a `ruleset_fault` would be a 500 to the client who sent it;
//! - a record refused at event `k` replays, cut before `k`, as a game in progress or over, not
//!   broken (the first rule broken is the one reported), and its event `k`, where it is a card, a
//!   call, a take, a buy or a bid of the player to move, is not one `next` offered there;
//! - a record accepted (valid or in progress) had each card, call and buy, and each bid, discard and
//!   take made in turn, from the first event the mutation touched, offered by `next` (a discard
//!   of `count` cards it lists; a fault paid for, `play { fault }` or `discard { fault }`, excepted):
//!   no card is accepted out of turn.
//!
//! `RECORD_FUZZ_CASES=N` mutates N records of each ruleset; `RECORD_FUZZ_COUNTS=1` prints what was
//! tried.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::{parse_record, replay, Event, GameRecord, Phase, Status, Text, Verdict};
use tarot_testkit::{fixture_files, fixture_rulesets, registry};

use crate::common;

/// A record mutated from `rec`, and the first event the mutation touched (`0` for the deal or the
/// header).
fn mutate(rules: &Ruleset, rec: &GameRecord, rng: &mut ChaCha8Rng) -> (GameRecord, usize) {
    let mut rec = rec.clone();
    let mut first = rec.events.len();
    let players: Vec<Text> = rec.players.iter().map(|p| p.as_str().into()).collect();
    for _ in 0..rng.gen_range(1..=2) {
        let n = rec.events.len();
        if n < 2 {
            break;
        }
        let i = rng.gen_range(1..n);
        let at = match rng.gen_range(0..11) {
            0 => {
                rec.events.remove(i);
                i
            }
            1 => {
                let e = rec.events[rng.gen_range(1..n)].clone();
                rec.events.insert(i, e);
                i
            }
            2 if i + 1 < n => {
                rec.events.swap(i, i + 1);
                i
            }
            3 => {
                let who = players.choose(rng).unwrap().clone();
                match &mut rec.events[i] {
                    Event::Bid { player, .. }
                    | Event::Call { player, .. }
                    | Event::Discard { player, .. }
                    | Event::Take { player, .. }
                    | Event::Buy { player, .. }
                    | Event::Declare { player, .. }
                    | Event::Play { player, .. }
                    | Event::SitOut { player } => *player = who,
                    Event::Deal { .. } => {}
                }
                i
            }
            4 => {
                let card = rules.pack.cards.iter().collect::<Vec<_>>().choose(rng).unwrap().code();
                if let Event::Play { card: c, .. } = &mut rec.events[i] {
                    *c = card;
                }
                i
            }
            5 if rules.bidding.is_some() => {
                let b = rules.bidding.as_ref().unwrap();
                let mut words: Vec<&str> = b.contracts.iter().map(|c| c.name.as_str()).collect();
                words.push("pass");
                let bid = (*words.choose(rng).unwrap()).into();
                rec.events.insert(i, Event::Bid { player: players.choose(rng).unwrap().clone(), bid });
                i
            }
            6 if !rules.declarations.is_empty() => {
                let d = rules.declarations.choose(rng).unwrap();
                rec.events.insert(i, Event::Declare { player: players.choose(rng).unwrap().clone(), declaration: d.name.as_str().into(), cards: vec![] });
                i
            }
            7 => {
                if let Event::Deal { hands, packets, .. } = &mut rec.events[0] {
                    packets.clear();
                    let names: Vec<Text> = hands.keys().cloned().collect();
                    let (a, b) = (names.choose(rng).unwrap().clone(), names.choose(rng).unwrap().clone());
                    let (x, y) = (rng.gen_range(0..hands[&a].len().max(1)), rng.gen_range(0..hands[&b].len().max(1)));
                    if x < hands[&a].len() && y < hands[&b].len() {
                        let card = hands[&a][x].clone();
                        hands.get_mut(&a).unwrap()[x] = hands[&b][y].clone();
                        hands.get_mut(&b).unwrap()[y] = card;
                    }
                }
                0
            }
            8 => {
                rec.dealer = rec.players.choose(rng).unwrap().clone();
                0
            }
            9 if !rules.options.is_empty() => {
                let o = rules.options.choose(rng).unwrap();
                let choice = o.choices.choose(rng).unwrap();
                rec.options = BTreeMap::from([(o.name.clone(), choice.to_json())]);
                0
            }
            _ => {
                rec.events.truncate(i);
                i
            }
        };
        first = first.min(at);
    }
    (rec, first)
}

/// Whether `next`, after the first `k` events of `rec`, offered its event `k`: a card, a call, a take or
/// a buy of the player to move among those listed, or his bid or discard. `None` for a declaration or
/// a sit-out, for a bid by another player (some rules let a bid be said out of turn: `next_agrees`
/// judges those), and for another player's discard or take.
fn offered(rules: &Ruleset, rec: &GameRecord, k: usize) -> Option<bool> {
    let before = replay(rules, &GameRecord { events: rec.events[..k].to_vec(), ..rec.clone() }).ok()?;
    let next = before.next.as_ref()?;
    match &rec.events[k] {
        // A card is offered only to the player to move, in play (a card out of turn never is).
        Event::Play { player, card } => {
            let card = rules.pack.parse_card(card);
            Some(**player == *next.player && next.phase == Phase::Play && card.is_some() && next.legal.iter().any(|l| rules.pack.parse_card(l) == card))
        }
        Event::Bid { player, bid } if **player == *next.player && next.phase == Phase::Bid => Some(next.legal.iter().any(|l| l.eq_ignore_ascii_case(bid))),
        // A call, a take and a buy are the player to move's, of what `next` lists.
        Event::Call { player, card } => Some(**player == *next.player && next.phase == Phase::Call && listed(&next.legal, card)),
        // (A take by another player is not judged: a stealer who may take "some" gives his steal up
        // by the next stealer's take, REFERENCE `steal`, and `next` names only the first.)
        Event::Take { player, cards } if **player == *next.player => {
            let set = cards_of(cards);
            Some(next.phase == Phase::Take && next.packets.iter().any(|p| cards_of(p) == set))
        }
        Event::Buy { player, card, .. } => {
            let bought = match card {
                Some(c) => listed(&next.legal, c),
                None => listed(&next.legal, "pass"),
            };
            Some(**player == *next.player && next.phase == Phase::Buy && bought)
        }
        // A discard of the player `next` names: of `count` cards, each listed. (Where several players
        // owe one, replay takes them in any order and `next` names the first: another's is not judged.)
        Event::Discard { player, cards } if **player == *next.player && next.phase == Phase::Discard => {
            Some(Some(cards.len()) == next.count && cards.iter().all(|c| listed(&next.legal, c)))
        }
        _ => None,
    }
}

/// Whether `code` (a card or a word) is among `legal`, in any case.
fn listed(legal: &[String], code: &str) -> bool {
    legal.iter().any(|l| l.eq_ignore_ascii_case(code))
}

fn cards_of<T: AsRef<str>>(cards: &[T]) -> std::collections::BTreeSet<String> {
    cards.iter().map(|c| c.as_ref().to_ascii_uppercase()).collect()
}

/// Whether event `k` was accepted as a fault paid for (`play { fault }`, `discard { fault }`): a move
/// `next` does not list, the rules making it cost rather than refusing it.
fn paid_fault(v: &Verdict, k: usize) -> bool {
    v.ledger.iter().any(|l| (l.rule.starts_with("play.fault.") || l.rule.starts_with("discard.fault.")) && l.event == Some(k))
}

/// What one mutated record broke of the properties above, if anything.
fn judge(rules: &Ruleset, rec: &GameRecord, first: usize) -> Option<String> {
    let v = match catch_unwind(AssertUnwindSafe(|| replay(rules, rec))) {
        Err(_) => return Some("replay panicked".into()),
        Ok(Err(e)) if e.ruleset_fault.is_some() => return Some(format!("the rules were blamed: {e}")),
        Ok(Err(_)) => return None,
        Ok(Ok(v)) => v,
    };
    match v.status {
        Status::Invalid => {
            let k = v.violation.as_ref().unwrap().event;
            if k > 0 && k <= rec.events.len() {
                let before = replay(rules, &GameRecord { events: rec.events[..k].to_vec(), ..rec.clone() });
                // In progress, or over (an event after the end is refused), but not broken earlier.
                if !matches!(&before, Ok(b) if b.status != Status::Invalid) {
                    return Some(format!("refused at event {k}, but cut before it: {:?}", before.map(|b| (b.status, b.violation))));
                }
                // A discard's cards each listed may still break a requirement on the set as a whole:
                // `next` lists cards, not sets, so a refused discard is not judged here.
                let a_set = matches!(rec.events.get(k), Some(Event::Discard { .. }));
                if k < rec.events.len() && !a_set && offered(rules, rec, k) == Some(true) {
                    return Some(format!("event {k} refused ({}) though next offered it", v.violation.as_ref().unwrap().rule));
                }
            }
        }
        Status::Valid | Status::InProgress => {
            for k in first.max(1)..rec.events.len() {
                if offered(rules, rec, k) == Some(false) && !paid_fault(&v, k) {
                    return Some(format!("event {k} ({:?}) accepted though next did not offer it", rec.events[k]));
                }
            }
        }
        Status::Annulled => {}
    }
    None
}

#[test]
fn mutated_records_are_refereed_where_they_break_and_never_blame_the_rules() {
    let cases = common::count("RECORD_FUZZ_CASES", 400) as usize;
    let mut rng = ChaCha8Rng::seed_from_u64(0x5EED_F022);
    let (mut tried, mut by_status, mut failures) = (0, BTreeMap::<String, usize>::new(), vec![]);
    let rulesets = fixture_rulesets();
    for id in &rulesets {
        let games: Vec<GameRecord> = fixture_files(id, "valid").iter().map(|p| parse_record(&std::fs::read_to_string(p).unwrap()).unwrap()).collect();
        if games.is_empty() {
            continue;
        }
        for n in 0..cases {
            let game = games.choose(&mut rng).unwrap();
            let rules = registry().get(&game.ruleset).unwrap();
            let (rec, first) = mutate(rules, game, &mut rng);
            tried += 1;
            let status = replay(rules, &rec).map_or_else(|_| "refused as input".to_string(), |v| format!("{:?}", v.status));
            *by_status.entry(status).or_default() += 1;
            if let Some(what) = judge(rules, &rec, first) {
                failures.push(format!("{id} #{n}: {what}\n  {}", serde_json::to_string(&rec).unwrap()));
            }
        }
    }
    if std::env::var("RECORD_FUZZ_COUNTS").is_ok() {
        eprintln!("record_fuzz: {tried} mutated records of {} rulesets, {by_status:?}, {} failures", rulesets.len(), failures.len());
    }
    assert!(by_status.len() >= 3, "the mutations reach too few outcomes: {by_status:?}");
    assert!(failures.is_empty(), "{} of {tried} mutated records, the first:\n{}", failures.len(), failures[..failures.len().min(5)].join("\n"));
}
