//! Cards that take the place of the trick's obligations (`tests/rules/forced-instead.tarot`, Basic
//! Tarot where each player after the leader who holds a trump plays one to the first trick whatever
//! is led, `must play "label" instead = cards`): a card of the suit led, which Basic asks of him, is refused with the
//! rule, and the trump Basic refuses him is played; the leader, a player with no trump, and every
//! player after the first trick play as under Basic; `next` and the simulator play by it; `instead` is refused on a
//! lead and where the section has no obligation to set aside.

use crate::common;

use std::collections::BTreeMap;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::random_game;
use tarot_engine::{replay, Event, GameRecord, Status};

const ID: &str = "forced-instead";

fn rules(id: &str) -> Ruleset {
    common::rules(id, &[ID])
}

/// Each turn of a seeded game played with random legal cards under the test rules: the record before
/// the card, the player, the trick, the card led to it, the cards he holds, `next`'s legal cards under
/// the test rules and under Basic (none once the game is one Basic refuses). Each card is one both
/// allow, where there is one.
struct Turn {
    game: GameRecord,
    player: String,
    trick: usize,
    led: Option<String>,
    hand: Vec<String>,
    legal: Vec<String>,
    basic: Option<Vec<String>>,
}

fn turns(r: &Ruleset, basic: &Ruleset, seed: u64) -> Vec<Turn> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut g = random_game(r, 4, &BTreeMap::new(), &mut rng).unwrap();
    let first = g.events.iter().position(|e| matches!(e, Event::Play { .. })).unwrap();
    let mut hands: BTreeMap<String, Vec<String>> = g
        .events
        .iter()
        .find_map(|e| if let Event::Deal { hands, .. } = e { Some(hands.iter().map(|(p, h)| (p.to_string(), h.iter().map(|c| c.to_string()).collect())).collect()) } else { None })
        .unwrap();
    // The dealer's cards laid away before play.
    for e in &g.events[..first] {
        if let Event::Discard { player, cards } = e {
            hands.get_mut(player.as_str()).unwrap().retain(|c| !cards.iter().any(|d| d.as_str() == c));
        }
    }
    g.events.truncate(first);
    let mut out = vec![];
    let mut played: Vec<String> = vec![];
    loop {
        let Some(next) = replay(r, &g).unwrap().next else { break };
        let mut under_basic = g.clone();
        under_basic.ruleset = "basic".into();
        // Basic's legal cards, while the game is one Basic allows.
        let free = replay(basic, &under_basic).unwrap().next.map(|n| n.legal);
        let hand: Vec<String> = hands[next.player.as_ref()].iter().filter(|c| !played.contains(c)).cloned().collect();
        let trick = played.len() / 4;
        let led = (!played.len().is_multiple_of(4)).then(|| played[trick * 4].clone());
        out.push(Turn { game: g.clone(), player: next.player.to_string(), trick, led, hand, legal: next.legal.clone(), basic: free.clone() });
        // A card both allow where there is one, so that the game goes on under Basic too.
        let both: Vec<&String> = next.legal.iter().filter(|c| free.as_ref().is_some_and(|f| f.contains(c))).collect();
        let card = if both.is_empty() { next.legal.choose(&mut rng).unwrap().clone() } else { (*both.choose(&mut rng).unwrap()).clone() };
        g.events.push(Event::Play { player: next.player.as_ref().into(), card: card.as_str().into() });
        played.push(card);
    }
    out
}

fn is_trump(c: &str) -> bool {
    c.starts_with('T')
}

/// The suit a card led sets (none for a trump or the Fool).
fn suit(c: &str) -> Option<char> {
    (!is_trump(c) && c != "EX").then(|| c.chars().last().unwrap())
}

#[test]
fn a_trump_held_takes_the_place_of_the_suit_led_in_the_first_trick() {
    let (r, basic) = (rules(ID), rules("basic"));
    let (mut seen, mut seen_under_basic, mut as_basic) = (0, 0, 0);
    for seed in 0..20 {
        for t in turns(&r, &basic, seed) {
            let mut trumps: Vec<String> = t.hand.iter().filter(|c| is_trump(c)).cloned().collect();
            trumps.sort();
            let mut legal = t.legal.clone();
            legal.sort();
            let led = t.led.as_deref().and_then(suit);
            let same: Vec<String> = t.hand.iter().filter(|c| led.is_some() && suit(c) == led).cloned().collect();
            if t.trick == 0 && t.led.is_some() && !trumps.is_empty() {
                assert_eq!(legal, trumps, "seed {seed}: {} in the first trick holds trumps", t.player);
            } else if let Some(basic) = &t.basic {
                assert_eq!(&t.legal, basic, "seed {seed}: {} in trick {} plays as under Basic", t.player, t.trick + 1);
                as_basic += usize::from(t.trick > 0);
            }
            if t.trick != 0 || t.led.is_none() || trumps.is_empty() || same.is_empty() {
                continue;
            }
            seen += 1;
            // The card of the suit led, which Basic asks of him: refused with the rule.
            let mut g = t.game.clone();
            g.events.push(Event::Play { player: t.player.as_str().into(), card: same[0].as_str().into() });
            let v = replay(&r, &g).unwrap();
            let broke = v.violation.unwrap();
            assert_eq!((&*broke.rule, v.status), ("play.must.play.a-trump-to-the-first-trick", Status::Invalid));
            assert!(broke.message.contains("must play") && broke.message.contains("a trump to the first trick"), "{}", broke.message);
            g.ruleset = "basic".into();
            // (Under Basic, where the game so far is one it allows.)
            let under_basic = t.basic.is_some();
            if under_basic {
                assert_eq!(replay(&basic, &g).unwrap().status, Status::InProgress);
            }
            // The trump, which Basic refuses him (he holds the suit led): played.
            let mut g = t.game.clone();
            g.events.push(Event::Play { player: t.player.as_str().into(), card: trumps[0].as_str().into() });
            assert_eq!(replay(&r, &g).unwrap().status, Status::InProgress);
            g.ruleset = "basic".into();
            if under_basic {
                assert_eq!(replay(&basic, &g).unwrap().violation.unwrap().rule.as_ref(), "play.must.follow");
                seen_under_basic += 1;
            }
        }
    }
    assert!(seen > 0 && seen_under_basic > 0, "no player held the suit led and a trump in a first trick that Basic allows so far");
    assert!(as_basic > 0, "no game went on under Basic after its first trick");
}

#[test]
fn the_simulator_plays_by_cards_in_place_of_the_obligations() {
    assert!(common::simulated_games_obey(&rules(ID), 12) > 0);
}

#[test]
fn instead_is_refused_on_a_lead_and_where_no_obligation_is_set_aside() {
    let err = |play: &str| common::compile_error(&format!("ruleset t \"t\"\nextends basic\nplay {{\n{play}\n}}\n"));
    assert_eq!(err("  must play T1 \"x\" instead = count(tricks) == 0\n  must play \"y\" instead = if count(tricks) == 1 then trumps else none"), "");
    assert!(err("  must lead T1 \"x\" instead").contains("a lead has none"));
    assert!(err("  must lead \"x\" instead = if count(tricks) == 0 then trumps else none").contains("a lead has none"));
    assert!(err("  without must follow\n  without must trump\n  must play T1 \"x\" instead").contains("it would never apply"));
    assert!(err("  must play T1 instead").contains("`must play` is written"));
}
