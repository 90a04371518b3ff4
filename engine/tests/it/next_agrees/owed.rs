//! Moves owed before others: while a declaration, a steal or a buy is owed, `next` offers nothing
//! that replay refuses for it.

use std::collections::BTreeMap;

use tarot_engine::{replay, Event, Phase, SimOptions};
use tarot_testkit::registry;

use super::{assert_agree, check_game, game_of, judge, prefix, Judged, Tally};

/// Before the first card, while a declaration is owed (Grosstarock's compulsory declarations,
/// Königrufen's Besserrufer's bird, which its contract requires), `play` refuses every card: `next`
/// offers none, and lists the declaration open.
#[test]
fn no_card_is_offered_while_a_declaration_is_owed() {
    let cases =
        [("grosstarock", SimOptions::default()), ("koenigrufen", SimOptions { contract: tarot_engine::ContractChoice::Only("besserrufer".into()), ..SimOptions::steered() })];
    for (id, sim) in cases {
        let rules = registry().get(id).unwrap();
        let mut owed = 0;
        let mut tally = Tally::default();
        for seed in 0..12 {
            let rec = game_of(rules, 4, &BTreeMap::new(), &sim, seed);
            let Some(first) = rec.events.iter().position(|e| matches!(e, Event::Play { .. })) else { continue };
            for k in 1..first {
                let Event::Declare { player, declaration, .. } = &rec.events[k] else { continue };
                let before = replay(rules, &prefix(&rec, k)).unwrap();
                let next = before.next.unwrap();
                let mut with_card = prefix(&rec, k);
                with_card.events.push(rec.events[first].clone());
                let refused = replay(rules, &with_card).unwrap().violation.filter(|v| v.event == k);
                if next.phase == Phase::Play && refused.is_some() {
                    owed += 1;
                    assert!(next.legal.is_empty(), "{id} seed {seed}, event {k}: {next:?}");
                    assert!(next.declarations.iter().any(|o| *o.player == **player && o.declaration == declaration.as_str()), "{id} seed {seed}: {next:?}");
                }
            }
            check_game(rules, &rec, &mut tally);
        }
        assert!(owed > 0, "{id}: no declaration owed before the first card");
        assert_agree(&tally, id);
    }
}

/// Nothing is offered to declare while a steal is owed (the dealer's steal of the run of top trumps
/// at the bottom of the stock, or the discard after a steal): replay refuses any other move first.
/// Minchiate at two: every declaration `next` lists while the stock is being stolen from is one
/// replay accepts (a steal that may be made is given up by it).
#[test]
fn nothing_is_declared_open_while_a_steal_is_owed() {
    let rules = registry().get("minchiate").unwrap();
    let mut owed = 0;
    for seed in 0..300 {
        let rec = game_of(rules, 2, &BTreeMap::new(), &SimOptions::default(), seed);
        for k in 1..rec.events.len() {
            if !matches!(rec.events[k], Event::Take { .. } | Event::Discard { .. }) {
                continue;
            }
            let Some(next) = replay(rules, &prefix(&rec, k)).unwrap().next else { continue };
            owed += usize::from(next.declarations.is_empty());
            for o in &next.declarations {
                let e = Event::Declare { player: o.player.as_ref().into(), declaration: o.declaration.as_str().into(), cards: o.cards.iter().map(|c| c.as_str().into()).collect() };
                let j = judge(rules, &rec, k, e);
                assert!(matches!(j, Judged::Accepted), "seed {seed}, event {k}: {} declaring {} offered, replay: {j:?}", o.player, o.declaration);
            }
        }
    }
    assert!(owed > 0, "no steal reached");
}

/// While the taker may still buy a card (Droggn's Simple), nothing may be declared: `declare` asks
/// for the buy first, so `next` lists no declaration open, the Pagat's Ultimo included.
#[test]
fn nothing_is_declared_open_before_the_buy() {
    let rules = registry().get("droggn").unwrap();
    let sim = SimOptions { contract: tarot_engine::ContractChoice::Only("simple".into()), ..SimOptions::steered() };
    let (mut buys, mut tally) = (0, Tally::default());
    for seed in 0..10 {
        let rec = game_of(rules, 4, &BTreeMap::new(), &sim, seed);
        for k in 1..rec.events.len() {
            let v = replay(rules, &prefix(&rec, k)).unwrap();
            if let Some(next) = v.next.filter(|n| n.phase == Phase::Buy) {
                buys += 1;
                assert!(next.declarations.is_empty(), "seed {seed}, event {k}: {next:?}");
            }
        }
        check_game(rules, &rec, &mut tally);
    }
    assert!(buys > 0, "no buy");
    assert_agree(&tally, "droggn");
}
