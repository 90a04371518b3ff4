//! Forced leads whose cards are a formula read at the player's turn (`must lead "label" = cards`):
//! Cego's Leere games (PB9), where the declarer leads the empty cards he kept before taking the
//! Blinde (`hand - (hand - hand_of(p))`, the cards of his hand that were dealt him), or cards of their
//! suit. His legal leads at the first tricks are worked out here from the record alone (the cards
//! dealt him less his first Legage; his hand, the cards he plays), the refusal cites the rule, the
//! other games lead freely, and the compiler refuses a formula that gives no cards or reads a name
//! the turn cannot. Kleiner Mann's Geiß, kept from the declarer's hand and led to the first trick (P,
//! a fixed card: `must lead T1 "label" = condition`), is checked the same way.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::{random_game_with, replay, ContractChoice, Event, GameRecord, SimOptions, Status};

const EINE: &str = "play.must.lead.in-eine-leere-the-empty-card-kept-or-one-of-its-suit-leads-the-first-trick";
const ZWEI: &str = "play.must.lead.in-zwei-leere-the-empty-cards-kept-or-others-of-their-suit-lead-the-first-two-tricks";
const VERSCHIEDENE: &str = "play.must.lead.in-zwei-verschiedene-the-two-empty-cards-kept-lead-the-first-two-tricks";
const KLEINER_MANN: &str = "play.must.lead.in-kleiner-mann-the-declarer-leads-the-1-to-the-first-trick";

type Cards = BTreeSet<String>;

/// A lead in a seeded game: the record before it, the trick's number, whether the declarer leads,
/// his hand and the cards he kept before the Blinde, and the legal leads.
struct Lead {
    record: GameRecord,
    player: String,
    trick: usize,
    by_declarer: bool,
    hand: Cards,
    kept: Cards,
    legal: Cards,
}

/// A suited card's suit letter; none for a trump or the Gstieß.
fn suit(c: &str) -> Option<char> {
    (!c.starts_with('T') && c != "EX").then(|| c.chars().last().unwrap())
}

/// The cards of `hand` in the suits of `of`.
fn of_suits(hand: &Cards, of: &Cards) -> Cards {
    let suits: BTreeSet<char> = of.iter().filter_map(|c| suit(c)).collect();
    hand.iter().filter(|c| suit(c).is_some_and(|s| suits.contains(&s))).cloned().collect()
}

/// The leads of the first five tricks of `seeds` valid games of `contract`, simulated.
fn leads(r: &Ruleset, contract: &str, seeds: u64) -> Vec<Lead> {
    let sim = SimOptions { contract: ContractChoice::Only(contract.into()), ..SimOptions::steered() };
    let mut out = vec![];
    for seed in 0..seeds {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let Ok(g) = random_game_with(r, 4, &BTreeMap::new(), &sim, &mut rng) else { continue };
        let v = replay(r, &g).unwrap();
        assert_eq!(v.status, Status::Valid, "seed {seed}: {:?}", v.violation);
        if v.outcome.as_ref().and_then(|o| o.contract.as_deref()) != Some(contract) {
            continue;
        }
        let Some((declarer, laid)) = g.events.iter().find_map(|e| if let Event::Discard { player, cards } = e { Some((player.to_string(), cards.clone())) } else { None }) else {
            continue;
        };
        let dealt: Cards = g
            .events
            .iter()
            .find_map(|e| if let Event::Deal { hands, .. } = e { hands.get(declarer.as_str()).cloned() } else { None })
            .unwrap()
            .iter()
            .map(|c| c.to_string())
            .collect();
        let kept: Cards = dealt.iter().filter(|c| !laid.iter().any(|l| l.as_str() == c.as_str())).cloned().collect();
        let plays: Vec<(usize, String, String)> =
            g.events.iter().enumerate().filter_map(|(i, e)| if let Event::Play { player, card } = e { Some((i, player.to_string(), card.to_string())) } else { None }).collect();
        // The leads of the first five tricks: every fourth card from the first, or, where the first two
        // tricks are begun together (the Zwei games, `lead-together`), the first and second cards,
        // then every fourth from the ninth.
        let together = ["zwei-leere", "zwei-verschiedene"].contains(&contract);
        let at = if together { [0, 1, 8, 12, 16] } else { [0, 4, 8, 12, 16] };
        for (trick, &k) in at.iter().enumerate() {
            let (i, leader, _) = &plays[k];
            let mut record = g.clone();
            record.events.truncate(*i);
            let next = replay(r, &record).unwrap().next.unwrap();
            let held = |p: &str| plays[k..].iter().filter(|(_, q, _)| q == p).map(|(_, _, c)| c.clone()).collect::<Cards>();
            out.push(Lead {
                record,
                player: leader.clone(),
                trick,
                by_declarer: *leader == declarer,
                hand: held(leader),
                kept: kept.clone(),
                legal: next.legal.iter().cloned().collect(),
            });
        }
    }
    out
}

/// `card` led at `lead` is refused with `rule`, its message naming the cards that must be led.
fn refused(r: &Ruleset, lead: &Lead, card: &str, rule: &str, must: &Cards) {
    let mut g = lead.record.clone();
    g.events.push(Event::Play { player: lead.player.as_str().into(), card: card.into() });
    let v = replay(r, &g).unwrap();
    assert_eq!(v.status, Status::Invalid);
    let broke = v.violation.unwrap();
    assert_eq!((&*broke.rule, broke.event), (rule, g.events.len() - 1));
    // "Cid must lead 2 of hearts, 4 of hearts: LABEL", the cards by their names.
    let named = broke.message.strip_prefix(&format!("{} must lead ", lead.player)).and_then(|m| m.split_once(": ")).map(|(cards, _)| cards.split(", ").count());
    assert_eq!(named, Some(must.len()), "{}", broke.message);
    assert!(broke.at.starts_with("rulesets/cego.tarot:"), "{}", broke.at);
}

/// In `contract`, the declarer's leads to the tricks `bound` are exactly `expected(hand, kept)` when he
/// holds one of them, refused otherwise with `rule`; every other lead is free. The rule binds (leaves
/// out a card he holds) in some game.
fn check(contract: &str, bound: usize, rule: &str, expected: fn(&Cards, &Cards) -> Cards) {
    let r = common::rules("cego", &[]);
    let leads = leads(&r, contract, 40);
    let mut binding = 0;
    for l in &leads {
        let must = expected(&l.hand, &l.kept);
        if l.by_declarer && l.trick < bound && !must.is_empty() {
            assert_eq!(l.legal, must, "trick {}: hand {:?}, kept {:?}", l.trick, l.hand, l.kept);
            if let Some(other) = l.hand.difference(&must).next() {
                refused(&r, l, other, rule, &must);
                binding += 1;
            }
        } else {
            assert_eq!(l.legal, l.hand, "trick {} led by {}{}", l.trick, l.player, if l.by_declarer { ", the declarer" } else { "" });
        }
    }
    assert!(binding > 0, "{contract}: the lead never bound in {} leads", leads.len());
    assert!(leads.iter().any(|l| l.trick >= bound && l.by_declarer), "{contract}: no free lead of the declarer after the bound tricks");
}

#[test]
fn eine_leere_the_kept_card_or_one_of_its_suit_leads_the_first_trick() {
    check("eine-leere", 1, EINE, of_suits);
}

#[test]
fn zwei_leere_the_kept_cards_or_others_of_their_suit_lead_the_first_two_tricks() {
    // The suit of the kept cards still held: the one not led yet, or both when another of the suit was.
    check("zwei-leere", 2, ZWEI, |hand, kept| of_suits(hand, &hand.intersection(kept).cloned().collect()));
}

#[test]
fn zwei_verschiedene_the_kept_cards_themselves_lead_the_first_two_tricks() {
    check("zwei-verschiedene", 2, VERSCHIEDENE, |hand, kept| hand.intersection(kept).cloned().collect());
}

#[test]
fn kleiner_mann_the_geiss_kept_leads_the_first_trick() {
    check("kleiner-mann", 1, KLEINER_MANN, |hand, kept| {
        assert_eq!(kept.iter().map(String::as_str).collect::<Vec<_>>(), ["T1"], "the card kept is the Geiß");
        hand.intersection(kept).cloned().collect()
    });
}

#[test]
fn without_a_leere_game_the_declarer_leads_what_he_likes() {
    // Eine: the same Legage of ten, one card kept, and no forced lead.
    let r = common::rules("cego", &[]);
    let leads = leads(&r, "eine", 20);
    assert!(leads.iter().any(|l| l.trick == 0 && l.by_declarer && of_suits(&l.hand, &l.kept) != l.hand));
    for l in &leads {
        assert_eq!(l.legal, l.hand, "trick {} led by {}", l.trick, l.player);
    }
}

#[test]
fn the_simulator_plays_by_the_leere_leads() {
    assert!(common::simulated_games_obey(&common::rules("cego", &[]), 12) > 0);
}

#[test]
fn a_lead_formula_gives_cards_and_reads_what_a_turn_can() {
    let err = |play: &str| common::compile_error(&format!("ruleset t \"t\"\nextends basic\nplay {{\n{play}\n}}\n"));
    assert_eq!(err("  must lead \"x\" = if count(tricks) == 0 then suit_of(hand - (hand - hand_of(player))) else none"), "");
    assert_eq!(err("  must play \"x\" = hand - hand_of(player)"), "");
    // A condition where the cards belong, a number or a text: not cards.
    let e = err("  must lead \"x\" = count(tricks) == 0 and player == taker");
    assert!(e.contains("takes the cards that must be led") && e.contains("not a yes/no value"), "{e}");
    assert!(err("  must play \"x\" = count(hand)").contains("not a number"));
    assert!(err("  must lead \"x\" = if count(tricks) == 0 then 1 else \"none\"").contains("takes the cards that must be led"));
    // A name the turn does not see.
    let e = err("  must lead \"x\" = discarded");
    assert!(e.contains("`discarded` is not known in the condition of `must lead|play`"), "{e}");
    // Neither cards nor a formula, or both.
    assert!(err("  must lead \"x\"").contains("`must lead` is written"));
    assert!(err("  must lead T1 \"x\" \"y\" = yes").contains("`must lead` is written"));
}

#[test]
fn a_lead_formula_that_gives_no_cards_at_the_turn_is_the_rules_error() {
    // Not refused by the compiler (one branch is cards), refused at the first lead.
    let (rules, g) = common::basic_game_with_play("  must lead \"x\" = if count(tricks) == 0 then count(hand) else T1");
    let e = common::rules_mistake(&rules, &g, "play.must.lead.x");
    assert!(e.message.contains("a number, not a set of cards"), "{e}");
}
