//! Tapp Tarock's worked examples (rulesets/tapp-tarock.tarot, docs/family/tapp-tarock.md): the count in
//! threes less two of the oldcardgames rules (OCG "Trick Points").

use tarot_engine::testing::count_points;
use tarot_engine::Q;
use tarot_engine::{Card, CardSet};

fn pile(codes: &[&str]) -> CardSet {
    codes.iter().map(|c| Card::parse(c).unwrap_or_else(|| panic!("{c}"))).collect()
}

/// OCG: "Queen of Hearts / 5 of Hearts / Tarot 3 = (4 + 1 + 1) - 2 = 4; Jack of Spades / Tarot 14 /
/// Tarot 18 = (2 + 1 + 1) - 2 = 2; King of Diamonds / Tarot 12 / Sküs = (5 + 1 + 5) - 2 = 9" (the 5 of
/// hearts is not in the 54-card pack; its 4 stands in, another card worth 1).
#[test]
fn the_count_in_threes_less_two() {
    let registry = tarot_testkit::registry();
    let rules = registry.get("tapp-tarock").unwrap();
    for (cards, points) in [(&["QH", "4H", "T3"][..], 4), (&["JS", "T14", "T18"], 2), (&["KD", "T12", "T22"], 9)] {
        assert_eq!(count_points(&rules.counting, pile(cards), 0), Q::int(points), "{cards:?}");
    }
    let all = pile(&["QH", "4H", "T3", "JS", "T14", "T18", "KD", "T12", "T22"]);
    assert_eq!(count_points(&rules.counting, all, 0), Q::int(15));
    // The whole pack: 106 in single values, 18 threes less two each.
    assert_eq!(count_points(&rules.counting, rules.pack.cards, 0), Q::int(70));
}
