//! A match ended after a later deal by a player a declaration named (`ends-match after-deal-by`):
//! Cego's "Der Gstieß gibt ab" (`rulesets/cego.tarot`, P "Ending the Session"). A player makes the
//! call right after a deal; the holder of the Gstieß in that deal is named, and the match
//! (`matches::match_state`) is over after the next deal played to the end that he deals: not
//! before, and later deals belong to no match.

use std::collections::BTreeMap;
use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::{match_state, random_game, replay, Event, GameRecord, Registry, Setup, Status, Verdict, Q};

fn registry() -> &'static Registry {
    tarot_testkit::registry()
}

/// Simulated Cego deals at four, played to the end, with their verdicts.
fn pool(r: &Registry) -> Vec<(GameRecord, Verdict)> {
    let rules = r.get("cego").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    (0..80)
        .map(|_| random_game(rules, 4, &BTreeMap::new(), &mut rng).unwrap())
        .map(|rec| {
            let v = replay(rules, &rec).unwrap();
            (rec, v)
        })
        .filter(|(_, v)| v.status == Status::Valid)
        .collect()
}

/// Who was dealt the Gstieß, if anyone.
fn holder(rec: &GameRecord) -> Option<String> {
    let Some(Event::Deal { hands, .. }) = rec.events.first() else { panic!("a deal first") };
    hands.iter().find(|(_, cards)| cards.iter().any(|c| c == "EX" || c == "T22")).map(|(p, _)| p.to_string())
}

/// The deal with "Der Gstieß gibt ab" said by `caller` right after the cards are dealt.
fn with_call(r: &Registry, rec: &GameRecord, caller: &str) -> (GameRecord, Verdict) {
    let mut called = rec.clone();
    called.events.insert(1, Event::Declare { player: caller.into(), declaration: "gibt_ab".into(), cards: vec![] });
    let v = replay(r.get("cego").unwrap(), &called).unwrap();
    (called, v)
}

/// Each player's total over these deals.
fn totals(deals: &[&(GameRecord, Verdict)]) -> Vec<(Arc<str>, Q)> {
    let mut out: Vec<(Arc<str>, Q)> = vec![];
    for p in deals.iter().flat_map(|(_, v)| &v.outcome.as_ref().unwrap().players) {
        match out.iter_mut().find(|(n, _)| *n == p.player) {
            Some((_, t)) => *t = *t + p.score,
            None => out.push((p.player.clone(), p.score)),
        }
    }
    out
}

fn state(r: &Registry, deals: &[&(GameRecord, Verdict)]) -> tarot_engine::MatchState {
    let setup = Setup::new(r.get("cego").unwrap(), 4, &BTreeMap::new()).unwrap();
    let pairs: Vec<(&GameRecord, &Verdict)> = deals.iter().map(|(rec, v)| (rec, v)).collect();
    match_state(&setup, &pairs).unwrap().expect("Cego's session is a match")
}

/// The call made in the second deal, whose Gstieß was dealt to another player than its dealer; the
/// third deal dealt by someone else; the fourth by the holder: the match is over after the fourth,
/// not before, and a fifth deal belongs to no match.
#[test]
fn the_holder_of_the_card_deals_the_last_deal() {
    let r = registry();
    let deals = pool(r);
    let first = &deals[0];
    let (rec, _) = deals.iter().find(|(rec, _)| holder(rec).is_some_and(|h| h != rec.dealer)).expect("a Gstieß dealt to a player other than the dealer");
    let named = holder(rec).unwrap();
    let call = with_call(r, rec, &rec.players[0]);
    assert_eq!(call.1.status, Status::Valid, "{}", call.1.to_text());
    assert_eq!(call.1.outcome.as_ref().unwrap().last_dealer.as_deref(), Some(named.as_str()));
    assert!(call.1.notes.iter().any(|n| n.contains(&format!("{named}, the holder of the Gstieß, deals the match's last deal"))), "{:?}", call.1.notes);
    let text = String::from_utf8(call.1.to_json()).unwrap();
    assert!(text.contains(&format!("\"last_dealer\":\"{named}\"")), "{text}");
    let other = deals.iter().find(|(rec, _)| rec.dealer != named).unwrap();
    let last = deals.iter().find(|(rec, _)| rec.dealer == named).unwrap();
    let after = deals.iter().rev().find(|(rec, _)| rec.dealer != named).unwrap();

    // Before the call: a match under way, ended by nothing yet.
    let m = state(r, &[first]);
    assert_eq!((m.played, m.over_after, m.last_dealer.clone()), (1, None, None));
    // The call made, then a deal by another: under way, the holder named from deal 2.
    let m = state(r, &[first, &call, other]);
    assert_eq!((m.played, m.over_after), (3, None));
    assert_eq!(m.last_dealer, Some((Arc::from(named.as_str()), 2)));
    assert!(m.winners.is_empty());
    // The holder deals: over after deal 4, the highest totals the winners.
    let m = state(r, &[first, &call, other, last]);
    assert_eq!((m.played, m.over_after), (4, Some(4)));
    let want = totals(&[first, &call, other, last]);
    assert_eq!(m.totals, want);
    let top = want.iter().map(|(_, t)| *t).max().unwrap();
    assert_eq!(m.winners, want.iter().filter(|(_, t)| *t == top).map(|(p, _)| p.clone()).collect::<Vec<_>>());
    // A fifth deal belongs to no match: the end and the totals stay.
    let m5 = state(r, &[first, &call, other, last, after]);
    assert_eq!((m5.played, m5.over_after, m5.totals.clone(), m5.winners.clone()), (4, Some(4), m.totals.clone(), m.winners.clone()));
    // Without the call, nothing ends the match.
    let m = state(r, &[first, rec_pair(rec, &deals), other, last, after]);
    assert_eq!((m.over_after, m.last_dealer), (None, None));
}

fn rec_pair<'a>(rec: &GameRecord, deals: &'a [(GameRecord, Verdict)]) -> &'a (GameRecord, Verdict) {
    deals.iter().find(|(r, _)| r == rec).unwrap()
}

/// The holder's own deal in which the call is made is not his next: the match ends after the next
/// deal he deals after it. A deal of his not played to the end is not it either.
#[test]
fn the_last_deal_is_a_later_one_played_to_the_end() {
    let r = registry();
    let deals = pool(r);
    let (rec, _) = deals.iter().find(|(rec, _)| holder(rec).as_deref() == Some(rec.dealer.as_str())).expect("a dealer dealt the Gstieß");
    let named = rec.dealer.clone();
    let call = with_call(r, rec, &rec.players[1]);
    assert_eq!(call.1.outcome.as_ref().unwrap().last_dealer.as_deref(), Some(named.as_str()));
    let m = state(r, &[&call]);
    assert_eq!((m.played, m.over_after), (1, None));
    let last = deals.iter().find(|(other, _)| other.dealer == named && other != rec).unwrap();
    // His next deal broken off after a few events: not played to the end, not his last.
    let mut broken = last.0.clone();
    broken.events.truncate(3);
    let unfinished = replay(r.get("cego").unwrap(), &broken).unwrap();
    assert_eq!(unfinished.status, Status::InProgress);
    let broken = (broken, unfinished);
    let m = state(r, &[&call, &broken]);
    assert_eq!((m.played, m.over_after), (1, None));
    let m = state(r, &[&call, &broken, last]);
    assert_eq!((m.played, m.over_after), (2, Some(3)));
}

/// Where the Gstieß lies in the Blinde, nobody was dealt it: the call cannot be made in that deal,
/// and `next` does not offer it; where it was dealt, `next` offers it to every player right after the
/// deal.
#[test]
fn nobody_named_refuses_the_call() {
    let r = registry();
    let rules = r.get("cego").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let rec = (0..400).map(|_| random_game(rules, 4, &BTreeMap::new(), &mut rng).unwrap()).find(|rec| holder(rec).is_none()).expect("a Gstieß in the Blinde");
    let (_, v) = with_call(r, &rec, &rec.players[0]);
    assert_eq!(v.status, Status::Invalid, "{}", v.to_text());
    let broke = v.violation.unwrap();
    assert_eq!(&*broke.rule, "declaration.gibt_ab.ends-match");
    assert!(broke.message.contains("nobody is the holder of the Gstieß"), "{}", broke.message);
    let mut dealt = rec.clone();
    dealt.events.truncate(1);
    let open = replay(rules, &dealt).unwrap().next.unwrap().declarations;
    assert!(open.iter().all(|d| d.declaration != "gibt_ab"), "{open:?}");
    let other = (0..400).map(|_| random_game(rules, 4, &BTreeMap::new(), &mut rng).unwrap()).find(|rec| holder(rec).is_some()).unwrap();
    let mut dealt = other.clone();
    dealt.events.truncate(1);
    let open = replay(rules, &dealt).unwrap().next.unwrap().declarations;
    assert_eq!(open.iter().filter(|d| d.declaration == "gibt_ab").count(), 4, "{open:?}");
}
