//! Cego's session ended by "Der Gstieß gibt ab" (P "Ending the Session", PB "Game"): a steered game
//! in which a player makes the call right after the deal, naming the holder of the Gstieß to deal the
//! session's last deal (fixtures/cego/valid/gibt-ab.json); and one in which the Gstieß lies in the
//! Blinde, so that nobody was dealt it and the call cannot be made in that deal
//! (fixtures/cego/invalid/declaration.gibt_ab.ends-match.json).

use super::expect;
use crate::common::write;

use std::collections::BTreeMap;
use std::path::Path;

use crate::common;
use tarot_engine::ir::Ruleset;
use tarot_engine::{replay, ContractChoice, Event, GameRecord, SimOptions, Status};

/// Whether the Gstieß was dealt to the Blinde.
fn in_blinde(rec: &GameRecord) -> bool {
    matches!(rec.events.first(), Some(Event::Deal { dog, .. }) if dog.iter().any(|c| c == "EX" || c == "T22"))
}

pub(super) fn main(rules: &Ruleset, root: &Path) {
    let sim = SimOptions { contract: ContractChoice::Even, ..SimOptions::steered() };
    for (blinde, seed0) in [(false, 60), (true, 61)] {
        let Some((seed, rec)) = common::find_game(rules, 4, &BTreeMap::new(), &sim, (seed0, 2_000), |rec, _| (in_blinde(&rec) == blinde).then_some(rec)) else {
            eprintln!("gibt-ab: no game with the Gstieß {} in 2000 games", if blinde { "in the Blinde" } else { "dealt to a player" });
            continue;
        };
        let origin = format!("game {seed} of seed {seed0} of `cego_fixtures`, the call added after the deal");
        let caller = rec.players[0].clone();
        let mut called = rec.clone();
        called.events.insert(1, Event::Declare { player: caller.as_str().into(), declaration: "gibt_ab".into(), cards: vec![] });
        if blinde {
            called.description =
                Some(format!("Der Gstieß gibt ab said by {caller} where the Gstieß lies in the Blinde: nobody was dealt it, so the call cannot be made in this deal: {origin}"));
            let rule = expect(rules, &called, "declaration.gibt_ab.ends-match");
            write(&root.join("invalid").join(format!("{rule}.json")), &called);
        } else {
            let v = replay(rules, &called).expect("replayable");
            assert_eq!(v.status, Status::Valid, "{}", v.to_text());
            let holder = v.outcome.as_ref().and_then(|o| o.last_dealer.clone()).expect("the holder is named");
            called.description = Some(format!(
                "Der Gstieß gibt ab said by {caller} right after the deal: {holder}, who was dealt the Gstieß, deals the session's last deal, the next he deals: {origin}"
            ));
            write(&root.join("valid").join("gibt-ab.json"), &called);
        }
    }
}
