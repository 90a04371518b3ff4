//! Writes the per-ruleset fixtures under `fixtures/<ruleset>/`: valid games, one invalid game per kind
//! of violation (named after the rule it breaks), annulled deals and malformed records. Every game is
//! derived from a seeded random legal game, so the fixtures are reproducible:
//!
//!     cargo run -p tarot-engine --example make_fixtures
//!
//! The test `tests/it/fixtures.rs` replays them; this program is only needed to add or renew fixtures.
//! It leaves the files listed in `PINNED` as they are stored (picked by hand, or simulated by an
//! earlier engine). `make_fixtures check` regenerates everything into a copy of `fixtures/` and says
//! which stored file the generator would change or add (CI runs it): a run of this program on an
//! unchanged tree changes nothing.
//!
//!     make_fixtures                 every ruleset's simulated fixtures, then the regressions
//!     make_fixtures regressions     only the games arranged to show the verdict bugs fixed
//!     make_fixtures only ID         only the simulated fixtures of ruleset ID, its pinned files kept
//!     make_fixtures renew ID        the same, its pinned files written too (then unpin them)
//!     make_fixtures check [ID]      drift: exit status 1 if a run (or `only ID`) would change or add a file

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::{illegal_variant, random_game};
use tarot_engine::{replay, Event, GameRecord, Registry, Setup, Status};
use tarot_engine::{Card, CardSet};

#[path = "make_fixtures/regressions.rs"]
mod regressions;
#[path = "make_fixtures/variants.rs"]
mod variants;

use regressions::*;
use variants::*;

/// Stored fixtures the generator does not write (`renew ID` does): by ruleset, why, and the files
/// (under `fixtures/<ruleset>/`). A file the generator would make but is not stored is pinned too, so
/// that a run adds nothing unasked. `make_fixtures check` says when a pinned file is reproduced again,
/// so that its pin can go.
const PINNED: &[(&str, &str, &[&str])] = &[
    (
        "minchiate",
        "simulated at 6da2815, before the revoke was a fault paid (the seed-0 game's bad card, a revoke, now gives way to the next) and before the \
         sit-out by choice (the simulator now sits a player out in one game in four at a table of four); invalid/sit-out-by-choice.json is written \
         by engine/tests/it/sit_out.rs (minchiate_sit_out_fixtures_are_made_from_the_others) from valid/4p-2.json",
        &["invalid/play.must.trump.json", "invalid/sit-out-by-choice.json", "valid/4p-1.json", "valid/4p-2.json"],
    ),
    (
        "grosstarock",
        "picked by hand from `simulate --ruleset grosstarock --players 4` (daad85c): tables of four, the player opposite the dealer sitting out",
        &["valid/4p-1.json", "valid/4p-2.json"],
    ),
    ("galician-tarok", "made by `make_fixtures renew galician-tarok`; a plain run draws another game for it", &["invalid/play.last-trump.json"]),
    (
        "cego",
        "picked by hand from `simulate --ruleset cego --players 4 --seed 7 --contract solo` (game 14): a Solo in which the soloist takes no trick",
        &["valid/solo-no-trick.json"],
    ),
    (
        "cego-3",
        "written by engine/examples/cego3_fixtures.rs (a Cego's Legage of nine cards, as at four; the claim of a skinned Solo after a Solo was bid, by a \
         defender, and followed by a card), which scripts/check_generators.sh checks",
        &[
            "invalid/talon.split.json",
            "invalid/declaration.skinned_solo.allowed.json",
            "invalid/declaration.skinned_solo.json",
            "invalid/declaration.skinned_solo.ends-deal.json",
        ],
    ),
    (
        "cego",
        "written by engine/examples/cego_fixtures.rs (each forced lead refused; Kleiner Mann bid without the Geiß, and its Geiß laid away; a court kept in a \
         Leere game by a declarer dealt the empty cards it asks for; Eine Leere and Zwei Verschiedene bid with too few suits), which scripts/check_generators.sh checks",
        &[
            "invalid/play.must.lead.in-eine-leere-the-empty-card-kept-or-one-of-its-suit-leads-the-first-trick.json",
            "invalid/play.must.lead.in-zwei-leere-the-empty-cards-kept-or-others-of-their-suit-lead-the-first-two-tricks.json",
            "invalid/play.must.lead.in-zwei-verschiedene-the-two-empty-cards-kept-lead-the-first-two-tricks.json",
            "invalid/play.must.lead.in-kleiner-mann-the-declarer-leads-the-1-to-the-first-trick.json",
            "invalid/bidding.contract.kleiner-mann.by.json",
            "invalid/discard.require.6.json",
            "invalid/discard.require.1.json",
            "invalid/discard.require.2.json",
            "invalid/discard.require.3.json",
            "invalid/bidding.contract.eine-leere.by.json",
            "invalid/bidding.contract.zwei-verschiedene.by.json",
        ],
    ),
    (
        "galician-tarok",
        "written by engine/examples/galician_fixtures.rs (the Ultimo announced in Trischaken; the Pagat played early though another tarock was held), which scripts/check_generators.sh checks",
        &["invalid/declaration.ultimo.allowed.json", "invalid/declaration.ultimo.keeps.json"],
    ),
    (
        "tarocchini",
        "simulated at 54e890a; the ruleset has changed since (the accusi's shows, the call-outs), and with it the seeded games",
        &[
            "in_progress/mid-trick.json",
            "invalid/deal.packets.json",
            "invalid/declaration.accuso.every-card-counts.json",
            "invalid/declaration.accuso.json",
            "invalid/declaration.accuso.require.1.json",
            "invalid/declaration.fuori.allowed.json",
            "invalid/declaration.fuori.require.1.json",
            "invalid/declaration.fuori_mazziere.json",
            "invalid/discard.forbid.json",
            "invalid/discard.json",
            "invalid/play.hold.json",
            "invalid/play.must.follow.json",
            "invalid/play.must.trump.json",
            "invalid/play.order.json",
            "malformed/card-twice.json",
            "malformed/packets-card-twice.json",
            "malformed/packets-disagree.json",
            "malformed/unknown-card.json",
            "malformed/unknown-player.json",
            "malformed/wrong-hand-size.json",
            "valid/4p-1.json",
            "valid/4p-2.json",
        ],
    ),
    (
        "droggn",
        "simulated at 09961ec: the malformed records come from the game drawn after the 400 seeds, whose draws have changed since",
        &["malformed/card-twice.json", "malformed/unknown-card.json", "malformed/unknown-player.json", "malformed/wrong-hand-size.json"],
    ),
    (
        "tapp-tarock",
        "simulated at 84c8078; the ruleset has changed since (deal.dog_packets's file is not stored)",
        &["invalid/deal.dog_packets.json", "malformed/packets-card-twice.json", "malformed/packets-disagree.json"],
    ),
    ("tapp-tarock-1821", "written by engine/examples/tapper_fixtures.rs (a game steered to a declaration after the last trick)", &["invalid/declaration.trull_bonus.json"]),
];

/// Where `write` writes, and what it leaves: the fixtures folder (or `check`'s copy of it), the ruleset
/// whose pins `renew` lifts, and for each pinned file left, whether the generator made it exactly as
/// stored (its pin may go).
struct Writing {
    root: PathBuf,
    renew: Option<String>,
    pinned: BTreeMap<String, bool>,
}

static WRITING: Mutex<Option<Writing>> = Mutex::new(None);

fn is_pinned(rel: &str) -> bool {
    PINNED.iter().any(|(id, _, files)| rel.strip_prefix(id).and_then(|r| r.strip_prefix('/')).is_some_and(|f| files.contains(&f)))
}

fn main() {
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let arg = |i: usize| std::env::args().nth(i);
    match arg(1).as_deref() {
        Some("check") => std::process::exit(check(&registry, &fixtures, arg(2).as_deref())),
        Some(mode @ ("only" | "renew")) => {
            let id = arg(2).unwrap_or_else(|| panic!("make_fixtures {mode} ID"));
            *WRITING.lock().unwrap() = Some(Writing { root: fixtures.clone(), renew: (mode == "renew").then(|| id.clone()), pinned: BTreeMap::new() });
            simulated(&registry, &fixtures, Some(&id));
        }
        Some("regressions") => {
            *WRITING.lock().unwrap() = Some(Writing { root: fixtures.clone(), renew: None, pinned: BTreeMap::new() });
            regressions(&registry, &fixtures);
        }
        None => {
            *WRITING.lock().unwrap() = Some(Writing { root: fixtures.clone(), renew: None, pinned: BTreeMap::new() });
            // The games arranged to show the verdict bugs fixed are written last, over any simulated
            // fixture of the same name.
            simulated(&registry, &fixtures, None);
            regressions(&registry, &fixtures);
        }
        Some(other) => panic!("make_fixtures [check | regressions | only ID | renew ID], not `{other}`"),
    }
}

/// Regenerates every fixture (or ruleset `only`'s simulated ones) into a copy of the stored folder (so that what a run keeps, such as an
/// annulled deal already stored, is kept there too) and compares: each file the run would change or
/// add is drift. Prints what it found; the exit status is 1 on drift.
fn check(registry: &Registry, fixtures: &Path, only: Option<&str>) -> i32 {
    let copy = std::env::temp_dir().join(format!("make_fixtures-check-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&copy);
    copy_tree(fixtures, &copy);
    *WRITING.lock().unwrap() = Some(Writing { root: copy.clone(), renew: None, pinned: BTreeMap::new() });
    simulated(registry, &copy, only);
    if only.is_none() {
        regressions(registry, &copy);
    }
    let mut drift = vec![];
    for rel in files_under(&copy) {
        let made = std::fs::read(copy.join(&rel)).expect("a regenerated file");
        match std::fs::read(fixtures.join(&rel)) {
            Ok(stored) if stored == made => {}
            Ok(_) => drift.push(format!("changed: fixtures/{rel}")),
            Err(_) => drift.push(format!("added: fixtures/{rel}")),
        }
    }
    let _ = std::fs::remove_dir_all(&copy);
    let pinned = WRITING.lock().unwrap().take().map(|w| w.pinned).unwrap_or_default();
    for (rel, same) in &pinned {
        if *same {
            println!("pinned, but made again exactly as stored (its pin in make_fixtures.rs may go): fixtures/{rel}");
        }
    }
    let listed = PINNED.iter().map(|(_, _, f)| f.len()).sum::<usize>();
    println!("{} pinned files left as stored ({} listed)", pinned.len(), listed);
    if drift.is_empty() {
        println!("no drift: the run reproduces every stored fixture it makes");
        0
    } else {
        for d in &drift {
            println!("{d}");
        }
        println!("{} files drift: the stored fixtures are not what make_fixtures makes (renew them with `make_fixtures only ID` and review, or pin them in PINNED)", drift.len());
        1
    }
}

fn copy_tree(from: &Path, to: &Path) {
    for rel in files_under(from) {
        let dest = to.join(&rel);
        std::fs::create_dir_all(dest.parent().expect("a folder")).expect("a writable temporary folder");
        std::fs::copy(from.join(&rel), dest).expect("a copied fixture");
    }
}

/// The files under `root`, as paths relative to it with `/`, sorted.
fn files_under(root: &Path) -> Vec<String> {
    let mut out = vec![];
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("a readable folder").map(|e| e.expect("a folder entry")) {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                let rel = path.strip_prefix(root).expect("under the root");
                out.push(rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>().join("/"));
            }
        }
    }
    out.sort();
    out
}

/// The fixtures derived from seeded random games.
fn simulated(registry: &Registry, root: &Path, only: Option<&str>) {
    // Every ruleset at its smallest table, and at its largest when it allows several; Basic Tarot at
    // 3, 4 (the dealer has cards to discard) and 6.
    let tables: Vec<(String, Vec<usize>)> = registry
        .all()
        .filter(|r| only.is_none_or(|id| r.id == id))
        .map(|r| {
            let mut sizes = vec![r.players.0];
            if r.players.1 != r.players.0 {
                sizes.push(r.players.1);
            }
            if r.id == "basic" {
                sizes = vec![3, 4, 6];
            }
            (r.id.clone(), sizes)
        })
        .collect();
    for (id, players) in &tables {
        let (id, players) = (id.as_str(), players.clone());
        let rules = registry.get(id).expect("built-in ruleset");
        let dir = root.join(id);
        let mut invalid: BTreeMap<String, (GameRecord, String)> = BTreeMap::new();
        for &n in &players {
            let mut rng = ChaCha8Rng::seed_from_u64(1637 + n as u64);
            let reseated = Setup::new(rules, n, &BTreeMap::new()).is_ok_and(|s| s.reseats(n));
            let mut valid = 0;
            for seed in 0..400u64 {
                let mut rec = random_game(rules, n, &BTreeMap::new(), &mut rng).expect("simulated game");
                let verdict = replay(rules, &rec).expect("replayable");
                let origin = format!("random legal game, seed {seed} of `make_fixtures` for {id} with {n} players");
                if verdict.status == Status::Annulled {
                    let reason = verdict.annulled.as_ref().map(|a| a.rule.to_string()).unwrap_or_default();
                    let path = dir.join("annulled").join(format!("{reason}.json"));
                    if !path.exists() {
                        rec.description = Some(format!("A deal annulled by {reason}: {origin}"));
                        write(&path, &rec);
                    }
                    continue;
                }
                if valid < 2 {
                    valid += 1;
                    rec.description = Some(format!("A complete legal game: {origin}"));
                    write(&dir.join("valid").join(format!("{n}p-{valid}.json")), &rec);
                    if valid == 1 && n == players[0] {
                        in_progress(&dir, &rec, &origin);
                        if let Some(dry) = petit_sec(rules, &rec) {
                            write(&dir.join("annulled").join("annul.petit_sec.json"), &dry);
                        }
                        if let Some(game) = untouchable(rules, &rec) {
                            write(&dir.join("valid").join("untouchable.json"), &game);
                        }
                        if let Some(first) = petit_first_packet(rules, &rec) {
                            write(&dir.join("annulled").join("annul.petit_first_packet.json"), &first);
                        }
                        // (Where all passing plays a contract, the deal is not annulled.)
                        if let Some(passed) = all_pass(&rec).filter(|p| replay(rules, p).is_ok_and(|v| v.status == Status::Annulled)) {
                            write(&dir.join("annulled").join("bidding.all-pass.json"), &passed);
                        }
                    }
                }
                // A table seated otherwise than its record's list (clockwise, or a player sitting
                // out) draws its card refused from a generator of its own, so that the games drawn
                // after it are the same as for a table seated as listed.
                let mut own = ChaCha8Rng::seed_from_u64(seed);
                let variant_rng = if reseated { &mut own } else { &mut rng };
                if let Some((bad, at)) = illegal_variant(rules, &rec, variant_rng) {
                    record_invalid(rules, &mut invalid, bad, format!("event {at} of a {origin} replaced by a card its player may not play"));
                }
                for (bad, what) in mutations(rules, &rec) {
                    record_invalid(rules, &mut invalid, bad, format!("{what}, in a {origin}"));
                }
            }
            if n == players[0] {
                for (name, bad) in malformed(&registry.get(id).unwrap().id, &random_game(rules, n, &BTreeMap::new(), &mut rng).expect("game")) {
                    write(&dir.join("malformed").join(format!("{name}.json")), &bad);
                }
            }
        }
        for (rule, (mut rec, why)) in invalid {
            rec.description = Some(format!("Breaks {rule}: {why}"));
            write(&dir.join("invalid").join(format!("{rule}.json")), &rec);
        }
    }
}

fn write(path: &PathBuf, rec: &GameRecord) {
    let json = serde_json::to_string_pretty(rec).expect("serializable") + "\n";
    // A pinned file is left as stored (unless its ruleset is renewed); whether the generator made it
    // exactly so is noted for `check`.
    if let Some(w) = WRITING.lock().unwrap().as_mut() {
        if let Ok(rel) = path.strip_prefix(&w.root) {
            let rel = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>().join("/");
            let renewed = w.renew.as_deref().is_some_and(|id| rel.split('/').next() == Some(id));
            if is_pinned(&rel) && !renewed {
                let same = std::fs::read_to_string(path).is_ok_and(|stored| stored == json);
                w.pinned.insert(rel, same);
                return;
            }
        }
    }
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("writable fixtures folder");
    std::fs::write(path, json).expect("writable fixture");
}

fn cards_of(rec: &GameRecord, player: &str) -> CardSet {
    match &rec.events[0] {
        Event::Deal { hands, .. } => hands.get(player).map(|h| h.iter().filter_map(|c| Card::parse(c)).collect()).unwrap_or_default(),
        _ => CardSet::EMPTY,
    }
}
