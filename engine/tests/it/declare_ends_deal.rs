//! Declarations that end the deal unplayed (`ends-deal`), made once the talon is shown and before the
//! taker takes his packet (`when before-take`), checked by replay on `tests/rules/declare-ends-deal.tarot`
//! (Tapp Tarock's Three conceded for its value): the concession is valid, offered by `next` only then,
//! made by the simulator when steered to it, and scored as its payments alone; made at another time,
//! by another player, or followed by any move, it is refused; and the compiler refuses it where it could
//! never apply.

use crate::common;

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::{random_game_with, replay, ContractChoice, Event, GameRecord, SimOptions, Status, Q};

const ID: &str = "declare-ends-deal";

fn rules() -> Ruleset {
    common::rules(ID, &[ID])
}

fn refused(find: &str, replace: &str) -> String {
    common::test_rules(ID, Some((find, replace))).expect_err("refused")
}

fn three(end_deal: f64, seed: u64) -> GameRecord {
    let sim = SimOptions { contract: ContractChoice::Only("three".into()), end_deal, ..SimOptions::steered() };
    random_game_with(&rules(), 3, &BTreeMap::new(), &sim, &mut ChaCha8Rng::seed_from_u64(seed)).expect("a game")
}

fn concession(g: &GameRecord) -> Option<usize> {
    g.events.iter().position(|e| matches!(e, Event::Declare { declaration, .. } if &**declaration == "concede"))
}

fn taker(g: &GameRecord) -> String {
    g.events.iter().find_map(|e| if let Event::Take { player, .. } | Event::Declare { player, .. } = e { Some(player.to_string()) } else { None }).expect("a taker")
}

#[test]
fn a_concession_ends_the_deal_with_its_payments_alone() {
    let rules = rules();
    for seed in 0..20u64 {
        // Unsteered, the simulator never concedes: the games are played as the parent's.
        let g = three(0.0, seed);
        assert!(concession(&g).is_none());
        // Steered, the taker concedes once the talon is shown.
        let g = three(1.0, seed);
        let at = concession(&g).expect("conceded");
        assert_eq!(at, g.events.len() - 1, "nothing follows the concession");
        assert!(!g.events.iter().any(|e| matches!(e, Event::Take { .. } | Event::Play { .. })));
        let v = replay(&rules, &g).unwrap();
        assert_eq!(v.status, Status::Valid, "{:?}", v.violation);
        assert!(v.next.is_none() && v.tricks.is_empty());
        let o = v.outcome.as_ref().unwrap();
        assert_eq!(o.contract.as_deref(), Some("three"));
        let t = taker(&g);
        for p in &o.players {
            assert_eq!(p.score, if *p.player == *t { Q::int(-6) } else { Q::int(3) }, "{}", p.player);
        }
        assert!(v.notes.iter().any(|n| n.contains("ends the deal unplayed")), "{:?}", v.notes);

        // Offered by `next` at the take, to the taker alone; not once the packet is taken.
        let mut before = g.clone();
        before.events.truncate(at);
        let w = replay(&rules, &before).unwrap();
        let offered: Vec<(String, String)> =
            w.next.as_ref().unwrap().declarations.iter().map(|d| (d.player.to_string(), d.declaration.to_string())).filter(|(_, d)| d == "concede").collect();
        assert_eq!(offered, vec![(t.clone(), "concede".to_string())]);
        let played = three(0.0, seed);
        let take = played.events.iter().position(|e| matches!(e, Event::Take { .. })).unwrap();
        let mut after = played.clone();
        after.events.truncate(take + 1);
        let w = replay(&rules, &after).unwrap();
        assert!(w.next.as_ref().unwrap().declarations.iter().all(|d| &*d.declaration != "concede"));

        // Made after the take: too late.
        let mut late = after.clone();
        late.events.push(g.events[at].clone());
        let x = replay(&rules, &late).unwrap().violation.unwrap();
        assert_eq!(&*x.rule, "declaration.concede", "{}", x.message);
        assert!(x.message.contains("once the talon is shown, before the taker takes his packet"), "{}", x.message);

        // Anything after it breaks `ends-deal`.
        let mut more = g.clone();
        more.events.push(played.events[take].clone());
        let x = replay(&rules, &more).unwrap().violation.unwrap();
        assert_eq!((&*x.rule, x.event), ("declaration.concede.ends-deal", at + 1), "{}", x.message);
        assert!(x.message.contains("the deal ended unplayed"), "{}", x.message);

        // By another player: not his to make.
        let mut other = g.clone();
        let someone = g.players.iter().find(|p| ***p != *t).unwrap().to_string();
        if let Event::Declare { player, .. } = &mut other.events[at] {
            *player = someone.as_str().into();
        }
        let x = replay(&rules, &other).unwrap().violation.unwrap();
        assert_eq!(&*x.rule, "declaration.concede", "{}", x.message);
    }
}

#[test]
fn a_solo_is_never_conceded() {
    // The Solo's talon is not taken: no moment before a take, no concession offered or made.
    let rules = rules();
    let sim = SimOptions { contract: ContractChoice::Only("solo".into()), end_deal: 1.0, ..SimOptions::steered() };
    for seed in 0..10u64 {
        let g = random_game_with(&rules, 3, &BTreeMap::new(), &sim, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        assert!(concession(&g).is_none());
        assert_eq!(replay(&rules, &g).unwrap().status, Status::Valid);
    }
}

#[test]
fn described() {
    let text: Vec<String> = tarot_engine::describe(&rules(), &BTreeMap::new()).rules.iter().map(|l| l.text.to_string()).collect();
    let text = text.join("\n");
    assert!(text.contains("Concession (once the talon is shown, before the taker takes his packet, by the taker)"), "{text}");
    assert!(text.contains("ends the deal where it is made, unplayed: what it pays is the deal's whole score, and the match goes on"), "{text}");
}

#[test]
fn refused_where_it_could_never_apply() {
    let with = |extra: &str| refused("  ends-deal\n", &format!("  ends-deal\n{extra}"));
    assert!(with("  ends-match\n").contains("`ends-deal` cannot go with `ends-match`"));
    assert!(with("  compulsory\n").contains("`ends-deal` cannot go with `compulsory`"));
    assert!(with("  keeps = T1\n").contains("`ends-deal` cannot go with `keeps`"));
    assert!(refused("  when before-take\n", "  when after-play\n").contains("`ends-deal` cannot be claimed `when after-play`"));
    // No call in Tapp Tarock: `called` in an `allowed` reads nothing.
    assert!(refused("  allowed = contract.name == \"three\"\n", "  allowed = has(dog, called)\n").contains("reads `called`, but the ruleset has no `call"));
    // No talon: nothing is taken before which to declare.
    let e = common::compile_error("ruleset t \"t\"\nextends fft-4p\ndeclaration give_up \"Give up\" {\n  when before-take\n  by taker\n  ends-deal\n}\n");
    assert!(e.contains("`when before-take` is made before the taker takes his packet of the talon, but the ruleset has no `talon"), "{e}");
}
