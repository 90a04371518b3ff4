//! The Zwei games' first two tricks begun together (P "The Play", `play { lead-together }`): the
//! declarer lays his two cards at once, each beginning a trick, and each defender in turn plays one
//! card to each; whoever won with the higher winning card leads the third. Steered games in which the
//! two tricks go to different players and the higher card, won at the first trick, gives the third
//! lead (fixtures/cego/valid/zwei-leere-higher-card.json), and in which two equal cards win them and
//! the higher suit gives it (…/valid/zwei-verschiedene-suit-order.json); and, from the first, a card
//! sent to the second trick that does not follow its suit (invalid/play.must.follow--second-trick.json),
//! the third trick led by the winner of the lower card (invalid/play.order--third-lead.json), and a
//! defender playing after the declarer's first card, before his second (invalid/play.order--two-cards.json).

use super::{contract, expect};
use crate::common::write;

use std::collections::BTreeMap;
use std::path::Path;

use crate::common;
use tarot_engine::ir::Ruleset;
use tarot_engine::{replay, ContractChoice, Event, GameRecord, SimOptions, Verdict};

/// The events of the plays, in order.
fn plays(rec: &GameRecord) -> Vec<usize> {
    rec.events.iter().enumerate().filter(|(_, e)| matches!(e, Event::Play { .. })).map(|(i, _)| i).collect()
}

/// The two tricks led together: each one's winning card, as the record writes it.
fn winning_cards(rec: &GameRecord, v: &Verdict) -> Option<[String; 2]> {
    let at = plays(rec);
    let card = |k: usize| -> Option<String> {
        let winner = &v.tricks.get(k)?.winner;
        at.iter().take(8).skip(k).step_by(2).find_map(|&i| match &rec.events[i] {
            Event::Play { player, card } if **player == **winner => Some(card.to_string()),
            _ => None,
        })
    };
    Some([card(0)?, card(1)?])
}

/// The note that says who leads the third trick, when the two were won by different players.
fn third_lead(v: &Verdict) -> Option<&String> {
    v.notes.iter().find(|n| n.contains("the highest of the winning cards"))
}

/// A suit card's rank code (`K` of `KS`), `None` for a trump.
fn rank(code: &str) -> Option<&str> {
    (!code.starts_with('T') && code != "EX").then(|| &code[..code.len() - 1])
}

pub(super) fn main(rules: &Ruleset, root: &Path) {
    // The higher card, won at the first trick, leads the third (not the second trick's winner).
    let sim = SimOptions { contract: ContractChoice::Only("zwei-leere".into()), ..SimOptions::steered() };
    let seed0 = 53;
    let found = common::find_game(rules, 4, &BTreeMap::new(), &sim, (seed0, 20_000), |rec, v| {
        (contract(&v) == "zwei-leere" && third_lead(&v).is_some_and(|n| n.contains("having won trick 1 "))).then_some(rec)
    });
    match found {
        Some((seed, mut rec)) => {
            let origin = format!("game {seed} of seed {seed0} of `cego_fixtures`");
            rec.description =
                Some(format!("A Zwei Leere whose first two tricks, begun together, go to two players: the winner of the first, with the higher card, leads the third: {origin}"));
            write(&root.join("valid").join("zwei-leere-higher-card.json"), &rec);
            broken(rules, root, &rec, &origin);
        }
        None => eprintln!("zwei-leere: no third lead to the first trick's winner in 20000 games"),
    }
    // Two equal cards win the two tricks: the higher suit leads the third.
    let sim = SimOptions { contract: ContractChoice::Only("zwei-verschiedene".into()), ..SimOptions::steered() };
    let seed0 = 54;
    let found = common::find_game(rules, 4, &BTreeMap::new(), &sim, (seed0, 50_000), |rec, v| {
        let [a, b] = winning_cards(&rec, &v)?;
        (contract(&v) == "zwei-verschiedene" && third_lead(&v).is_some() && rank(&a).is_some() && rank(&a) == rank(&b)).then_some(rec)
    });
    match found {
        Some((seed, mut rec)) => {
            rec.description = Some(format!(
                "A Zwei Verschiedene whose first two tricks, begun together, go to two players with equal cards: the one of the higher suit (clubs, spades, hearts, diamonds) leads the third: game {seed} of seed {seed0} of `cego_fixtures`"
            ));
            write(&root.join("valid").join("zwei-verschiedene-suit-order.json"), &rec);
        }
        None => eprintln!("zwei-verschiedene: no two tricks won by equal cards in 50000 games"),
    }
}

/// From a game whose two tricks begun together went to two players: a card sent to the second trick
/// that does not follow its suit, the third trick led by the winner of the lower card, and a defender
/// playing between the declarer's two cards.
fn broken(rules: &Ruleset, root: &Path, rec: &GameRecord, origin: &str) {
    let at = plays(rec);
    let player_at = |i: usize| match &rec.events[i] {
        Event::Play { player, card } => (player.clone(), card.clone()),
        _ => unreachable!("a play"),
    };
    // Each defender's card to the second trick, replaced by a card he plays later, until one is
    // refused by the second trick's `must follow`.
    let follow = [3, 5, 7].into_iter().find_map(|k| {
        let (player, card) = player_at(at[k]);
        at[k + 1..].iter().find_map(|&later| {
            let (p, c) = player_at(later);
            (p == player).then_some(())?;
            let mut g = rec.clone();
            g.events.truncate(at[k]);
            g.events.push(Event::Play { player: player.clone(), card: c.clone() });
            let v = replay(rules, &g).expect("replayable");
            let b = v.violation?;
            (&*b.rule == "play.must.follow" && b.message.contains("to trick 2")).then(|| {
                g.description = Some(format!(
                    "A Zwei Leere whose defender {player} sends to the second trick a card that does not follow its suit: event {} of {origin}, where he played {card}",
                    at[k]
                ));
                g
            })
        })
    });
    match follow {
        Some(g) => {
            expect(rules, &g, "play.must.follow");
            write(&root.join("invalid").join("play.must.follow--second-trick.json"), &g);
        }
        None => eprintln!("zwei-leere: no card to the second trick refused by its follow"),
    }
    // The third trick led by the winner of the second, who won with the lower card.
    let v = replay(rules, rec).expect("replayable");
    let second = v.tricks[1].winner.to_string();
    if let Some(&later) = at[8..].iter().find(|&&i| *player_at(i).0 == *second) {
        let mut g = rec.clone();
        let (player, card) = player_at(at[8]);
        g.events.truncate(at[8]);
        g.events.push(Event::Play { player: second.as_str().into(), card: player_at(later).1 });
        g.description = Some(format!(
            "A Zwei Leere whose third trick is led by {second}, who won the second trick with the lower card: event {} of {origin}, where {player} led {card}",
            at[8]
        ));
        expect(rules, &g, "play.order");
        write(&root.join("invalid").join("play.order--third-lead.json"), &g);
    }
    // The first defender plays after the declarer's first card, before his second.
    let mut g = rec.clone();
    let (declarer, second_card) = player_at(at[1]);
    let (defender, card) = player_at(at[2]);
    g.events.truncate(at[1]);
    g.events.push(Event::Play { player: defender.clone(), card: card.clone() });
    g.description = Some(format!(
        "A Zwei Leere whose defender {defender} plays {card} after the declarer's first card, before his second: event {} of {origin}, where {declarer} laid {second_card}",
        at[1]
    ));
    expect(rules, &g, "play.order");
    write(&root.join("invalid").join("play.order--two-cards.json"), &g);
}
