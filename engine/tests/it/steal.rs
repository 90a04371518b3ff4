//! Stealing from the stock (issue 15's N6, `steal { ... }`), checked on replayed games of
//! `tests/rules/steal-stock.tarot`: the cutter may take some of the stock's first cards that may be
//! stolen, the dealer every one that follows while they may be, each in a `take`, and each lays away
//! as many in a `discard`. Seeded simulated games replay valid; each changed move is refused under
//! rule `steal` (the order, the discard), `steal.cards` or `steal.dealer`.

use crate::common;

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::random_game;
use tarot_engine::{replay, Event, GameRecord, Status, Verdict};

fn compiled(text: Option<(&str, &str)>) -> Result<Ruleset, String> {
    common::test_rules("steal-stock", text)
}

fn games(rules: &Ruleset, count: usize) -> Vec<GameRecord> {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    (0..count)
        .map(|_| {
            let g = random_game(rules, 4, &BTreeMap::new(), &mut rng).unwrap();
            let v = replay(rules, &g).unwrap();
            assert_eq!(v.status, Status::Valid, "the simulator broke {:?}", v.violation);
            g
        })
        .collect()
}

fn takes(g: &GameRecord) -> Vec<(usize, String, Vec<String>)> {
    g.events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match e {
            Event::Take { player, cards } => Some((i, player.to_string(), cards.iter().map(|c| c.to_string()).collect())),
            _ => None,
        })
        .collect()
}

fn stock(g: &GameRecord) -> Vec<String> {
    match &g.events[0] {
        Event::Deal { dog, .. } => dog.iter().map(|c| c.to_string()).collect(),
        _ => unreachable!(),
    }
}

fn stealable(c: &str) -> bool {
    c.starts_with('K') || c.starts_with('Q') || c.starts_with('T')
}

fn changed(g: &GameRecord, f: impl FnOnce(&mut Vec<Event>)) -> Verdict {
    let mut g = g.clone();
    f(&mut g.events);
    replay(&compiled(None).unwrap(), &g).unwrap()
}

fn refused_at(v: &Verdict, event: usize, rule: &str, says: &str) {
    let x = v.violation.as_ref().unwrap_or_else(|| panic!("not refused: {:?}", v.status));
    assert_eq!((x.event, &*x.rule), (event, rule), "{}", x.message);
    assert!(x.message.contains(says), "{}", x.message);
}

#[test]
fn simulated_games_steal_and_lay_away_as_many() {
    let rules = compiled(None).unwrap();
    let (mut by_cutter, mut by_dealer) = (0, 0);
    for g in games(&rules, 150) {
        let run: Vec<String> = stock(&g).into_iter().take_while(|c| stealable(c)).collect();
        let t = takes(&g);
        if run.is_empty() {
            assert!(t.is_empty());
            continue;
        }
        let (dealer, cutter) = (g.dealer.to_string(), g.players[(g.players.iter().position(|p| *p == g.dealer).unwrap() + 3) % 4].to_string());
        let mut taken = 0;
        for (i, who, cards) in &t {
            assert!(who == &cutter || who == &dealer);
            assert_eq!(cards[..], run[taken..taken + cards.len()], "taken from the head, in order");
            taken += cards.len();
            // Each take is followed by a discard of as many cards.
            match &g.events[i + 1] {
                Event::Discard { player, cards: d } => assert_eq!((player.to_string(), d.len()), (who.clone(), cards.len())),
                e => panic!("{e:?}"),
            }
            if who == &cutter {
                by_cutter += 1;
            } else {
                by_dealer += 1;
                assert_eq!(taken, run.len(), "the dealer takes every card while they come");
            }
        }
        assert_eq!(taken, run.len());
    }
    assert!(by_cutter > 0 && by_dealer > 0, "{by_cutter} steals by the cutter, {by_dealer} by the dealer");
}

#[test]
fn a_steal_that_breaks_the_rule_is_refused() {
    let rules = compiled(None).unwrap();
    let (mut checked, mut skipped_cutter) = (0, 0);
    for g in games(&rules, 150) {
        let t = takes(&g);
        let Some((i, who, cards)) = t.last().cloned() else { continue };
        let head = stock(&g);
        let after: Vec<String> = head.iter().filter(|c| !t.iter().any(|(_, _, k)| k.contains(c))).cloned().collect();
        // The card after the run, which may not be stolen (when the stock has one).
        if let Some(next) = after.first() {
            let v = changed(&g, |e| {
                if let Event::Take { cards, .. } = &mut e[i] {
                    cards.push(next.as_str().into());
                }
            });
            refused_at(&v, i, "steal.cards", "may not steal");
        }
        // Not laying away: the discard left out.
        let v = changed(&g, |e| {
            e.remove(i + 1);
        });
        refused_at(&v, i + 1, "steal", "must first lay away");
        // Laying away one card too few.
        if !cards.is_empty() {
            let v = changed(&g, |e| {
                if let Event::Discard { cards, .. } = &mut e[i + 1] {
                    cards.pop();
                }
            });
            refused_at(&v, i + 1, "steal", "must lay away as many");
        }
        // The dealer's last steal taken one card short, or not at all.
        if who == g.dealer.as_str() {
            if cards.len() > 1 {
                let v = changed(&g, |e| {
                    if let Event::Take { cards, .. } = &mut e[i] {
                        cards.pop();
                    }
                    if let Event::Discard { cards, .. } = &mut e[i + 1] {
                        cards.pop();
                    }
                });
                refused_at(&v, i, "steal.dealer", "must steal every card while they come");
            }
            let v = changed(&g, |e| {
                e.drain(i..i + 2);
            });
            refused_at(&v, i, "steal.dealer", "must first steal");
        }
        // A cutter's steal left out: he stole nothing, and the dealer takes from the head.
        if t.len() == 2 {
            let v = changed(&g, |e| {
                e.drain(t[0].0..t[0].0 + 2);
            });
            refused_at(&v, t[1].0 - 2, "steal", "the stock is taken from its head");
            skipped_cutter += 1;
        }
        checked += 1;
    }
    assert!(checked > 10 && skipped_cutter > 0, "{checked} games changed, {skipped_cutter} cutters' steals left out");
}

#[test]
fn a_steal_is_compiled_with_its_checks() {
    let e = compiled(Some(("  cutter = \"some\"\n  dealer = \"all\"\n", ""))).unwrap_err();
    assert!(e.contains("stealing needs a stealer"), "{e}");
    let e = compiled(Some(("  dealer = \"all\"", "  dealer = \"every\""))).unwrap_err();
    assert!(e.contains("`dealer` is one of \"some\", \"all\""), "{e}");
    let e = compiled(Some(("  cards \"a king, a queen or a trump\" = kings + rank(Q) + trumps\n", ""))).unwrap_err();
    assert!(e.contains("stealing needs `cards"), "{e}");
    let e = compiled(Some(("  dealer = \"all\"", "  dealer = \"all\"\n  from = \"cut\""))).unwrap_err();
    assert!(e.contains("unknown steal statement `from`"), "{e}");
    let e = compiled(Some(("without discard\n", "without discard\nbidding {\n  turns once\n  contract prise \"prise\" { dog = \"defence\" }\n}\nsides taker\n"))).unwrap_err();
    assert!(e.contains("in a game without `bidding`"), "{e}");
}
