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
use tarot_engine::ir::{Ruleset, When};
use tarot_engine::testing::{Game, Phase};
use tarot_engine::Setup;
use tarot_engine::{illegal_variant, random_game};
use tarot_engine::{replay, Event, GameRecord, Registry, Status};
use tarot_engine::{Card, CardSet};
use tarot_engine::{Packet, Text};

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
        "cego",
        "written by engine/examples/cego_fixtures.rs (each forced lead refused; Kleiner Mann bid without the Geiß, and its Geiß laid away), which scripts/check_generators.sh checks",
        &[
            "invalid/play.must.lead.in-eine-leere-the-empty-card-kept-or-one-of-its-suit-leads-the-first-trick.json",
            "invalid/play.must.lead.in-zwei-leere-the-empty-cards-kept-or-others-of-their-suit-lead-the-first-two-tricks.json",
            "invalid/play.must.lead.in-zwei-verschiedene-the-two-empty-cards-kept-lead-the-first-two-tricks.json",
            "invalid/play.must.lead.in-kleiner-mann-the-declarer-leads-the-1-to-the-first-trick.json",
            "invalid/bidding.contract.kleiner-mann.by.json",
            "invalid/discard.require.6.json",
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
                if let Some((bad, at)) = illegal_variant(rules, &rec, &mut rng) {
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

/// The same game stopped after the deal, and stopped in the middle of a trick: the verdict says whose
/// turn it is and what they may do.
fn in_progress(dir: &Path, rec: &GameRecord, origin: &str) {
    let plays: Vec<usize> = rec.events.iter().enumerate().filter(|(_, e)| matches!(e, Event::Play { .. })).map(|(i, _)| i).collect();
    let mut cut = rec.clone();
    cut.events.truncate(1);
    cut.description = Some(format!("Only the deal of a {origin}: the game goes on with the first move"));
    write(&dir.join("in_progress").join("after-deal.json"), &cut);
    let mut cut = rec.clone();
    let n = seats(rec).len();
    cut.events.truncate(plays[4 * n + 2]);
    cut.description = Some(format!("A {origin}, stopped in the middle of the fifth trick"));
    write(&dir.join("in_progress").join("mid-trick.json"), &cut);
}

/// A random deal whose order puts the Petit in a player's first packet, under the option that makes
/// that cancel the deal (seed 000's "curious rule"), where the ruleset has it.
fn petit_first_packet(rules: &Ruleset, rec: &GameRecord) -> Option<GameRecord> {
    rules.annulments.iter().find(|a| a.name == "petit_first_packet")?;
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let options = BTreeMap::from([("petit_first_packet".to_string(), serde_json::json!("cancels"))]);
    for _ in 0..200 {
        let mut game = random_game(rules, rec.players.len(), &options, &mut rng).ok()?;
        let verdict = replay(rules, &game).ok()?;
        if verdict.annulled.as_ref().is_some_and(|a| &*a.rule == "annul.petit_first_packet") {
            game.description =
                Some("A deal whose order gives a player the Petit in his first packet, under seed 000's rule (option petit_first_packet = cancels): the hand is cancelled".into());
            return Some(game);
        }
    }
    None
}

/// The same deal, where every player passes.
fn all_pass(rec: &GameRecord) -> Option<GameRecord> {
    let mut out = rec.clone();
    out.events = rec.events.iter().take_while(|e| matches!(e, Event::Deal { .. } | Event::Bid { .. })).cloned().collect();
    if out.events.len() < 2 {
        return None;
    }
    for e in out.events.iter_mut() {
        if let Event::Bid { bid, .. } = e {
            *bid = "pass".into();
        }
    }
    out.description = Some("The deal of a random game of `make_fixtures` where every player passes".into());
    Some(out)
}

/// The deal of a game rearranged so that the first player's only trump is the Petit and he has no
/// Fool: the rules that annul such a deal (a petit sec) must do so.
fn petit_sec(rules: &Ruleset, rec: &GameRecord) -> Option<GameRecord> {
    if !rules.annulments.iter().any(|a| a.name == "petit_sec") {
        return None;
    }
    lone_petit(rec)
}

/// Where the Petit alone is untouchable (seed 003's Petit imprenable): a game played out from such a
/// deal, where the Petit falls to a trick the other side takes and goes back to its owner.
fn untouchable(rules: &Ruleset, rec: &GameRecord) -> Option<GameRecord> {
    // The deal is arranged for an untouchable Petit; another card would need another arrangement.
    rules.untouchable.as_ref().filter(|u| u.card == Card::trump(1))?;
    let arranged = lone_petit(rec)?;
    let dealer = rec.players.iter().position(|p| *p == rec.dealer)?;
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..200 {
        let mut game = tarot_engine::random_game_from(rules, &rec.players, dealer, arranged.events[0].clone(), &BTreeMap::new(), &mut rng).ok()?;
        let v = replay(rules, &game).ok()?;
        if v.status == Status::Valid && v.notes.iter().any(|n| n.contains("goes back to")) {
            game.description = Some(format!("A deal where the first player's only trump is the Petit, played out at random: {}", v.notes.join("; ")));
            return Some(game);
        }
    }
    None
}

/// The deal of a game rearranged so that the first player's only trump is the Petit, without the Fool.
fn lone_petit(rec: &GameRecord) -> Option<GameRecord> {
    let Event::Deal { hands, dog, cut, piles, .. } = &rec.events[0] else { return None };
    let mut hands = hands.clone();
    let seats = seats(rec);
    let first = seats[0].as_str();
    let petit = Card::trump(1).code();
    let fool = tarot_engine::FOOL.code();
    // Give the first player the Petit, and swap every other trump (and the Fool) he holds for a plain
    // card of another player's.
    for other in seats.iter().skip(1).map(String::as_str) {
        if let Some(i) = hands[other].iter().position(|c| *c == petit) {
            let j = hands[first].iter().position(|c| !c.starts_with('T') && *c != fool)?;
            let mine = hands[first][j].clone();
            hands.get_mut(other)?[i] = mine;
            hands.get_mut(first)?[j] = petit.clone();
        }
    }
    if !hands[first].contains(&petit) {
        return None;
    }
    for other in seats.iter().skip(1).map(String::as_str) {
        while let Some(i) = hands[first].iter().position(|c| (c.starts_with('T') && *c != petit) || *c == fool) {
            let Some(j) = hands[other].iter().position(|c| !c.starts_with('T') && *c != fool) else { break };
            let (a, b) = (hands[first][i].clone(), hands[other][j].clone());
            hands.get_mut(first)?[i] = b;
            hands.get_mut(other)?[j] = a;
        }
    }
    let mut out = rec.clone();
    // Rearranged hands no longer follow the recorded order of the deal, so it is left out.
    out.events = vec![Event::Deal { hands, dog: dog.clone(), cut: cut.clone(), piles: piles.clone(), packets: vec![] }];
    out.description = Some("A deal where the first player's only trump is the Petit and he has no Excuse (a petit sec), rearranged from a random deal of `make_fixtures`".into());
    Some(out)
}

fn record_invalid(rules: &Ruleset, found: &mut BTreeMap<String, (GameRecord, String)>, rec: GameRecord, why: String) {
    if let Ok(v) = replay(rules, &rec) {
        if let Some(violation) = v.violation {
            found.entry(violation.rule.to_string()).or_insert((rec, why));
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

/// Hand-made ways to break the bidding, discard and declaration rules, each applied to a legal game.
fn mutations(rules: &Ruleset, rec: &GameRecord) -> Vec<(GameRecord, String)> {
    let mut out = vec![];
    // The order of the deal: two players' packets swapped, a dog card dealt first, two dog cards
    // dealt together.
    if let Event::Deal { hands, dog, cut, piles, packets } = &rec.events[0] {
        let deal = |packets: Vec<tarot_engine::Packet>| {
            let mut r = rec.clone();
            r.events[0] = Event::Deal { hands: hands.clone(), dog: dog.clone(), cut: cut.clone(), piles: piles.clone(), packets };
            r
        };
        let players: Vec<usize> = (0..packets.len()).filter(|&i| packets[i].to.is_some()).collect();
        if let Some(w) = players.windows(2).find(|w| packets[w[0]].to != packets[w[1]].to && packets[w[0]].cards.len() == packets[w[1]].cards.len()) {
            let mut p = packets.clone();
            let (a, b) = (p[w[0]].to.clone(), p[w[1]].to.clone());
            // Swap who receives them, and the cards too, so that the hands stay as dealt.
            let (ca, cb) = (p[w[0]].cards.clone(), p[w[1]].cards.clone());
            p[w[0]] = tarot_engine::Packet { to: b, cards: cb };
            p[w[1]] = tarot_engine::Packet { to: a, cards: ca };
            out.push((deal(p), "event 0: two players' packets dealt in the wrong order".to_string()));
        }
        let dogs: Vec<usize> = (0..packets.len()).filter(|&i| packets[i].to.is_none()).collect();
        if let Some(&d) = dogs.first() {
            let mut p = packets.clone();
            let first = p.remove(d);
            p.insert(0, first);
            out.push((deal(p), "event 0: the first card of the pack dealt to the dog".to_string()));
        }
        if dogs.len() >= 2 {
            let mut p = packets.clone();
            let second = p.remove(dogs[1]);
            p[dogs[0]].cards.extend(second.cards);
            out.push((deal(p), "event 0: two cards dealt to the dog together".to_string()));
        }
    }
    let bids: Vec<usize> = rec.events.iter().enumerate().filter(|(_, e)| matches!(e, Event::Bid { .. })).map(|(i, _)| i).collect();
    if bids.len() >= 2 {
        let mut r = rec.clone();
        r.events.swap(bids[0], bids[1]);
        out.push((r, format!("events {} and {} (bids) swapped", bids[0], bids[1])));
        // A bid that does not outbid: the last bidder repeats the best bid so far.
        let best = bids.iter().filter_map(|&i| match &rec.events[i] {
            Event::Bid { bid, .. } if bid != "pass" => Some((i, bid.clone())),
            _ => None,
        });
        if let Some((i, bid)) = best.clone().next() {
            if let Some(&j) = bids.iter().find(|&&j| j > i) {
                let mut r = rec.clone();
                if let Event::Bid { player, .. } = &rec.events[j] {
                    r.events[j] = Event::Bid { player: player.clone(), bid: bid.clone() };
                    out.push((r, format!("event {j}: {player} bids {bid}, the bid already made")));
                }
            }
        }
    }
    // A call of a card the taker may not call: a queen while he does not hold the four kings.
    for (i, e) in rec.events.iter().enumerate() {
        let Event::Call { player, card } = e else { continue };
        if let Some(level) = rules.call.as_ref().and_then(|c| c.levels.get(1)) {
            if let Some(q) = level.iter().find(|q| q.code() != *card) {
                let mut r = rec.clone();
                r.events[i] = Event::Call { player: player.clone(), card: q.code() };
                out.push((r, format!("event {i}: {player} calls {q}")));
            }
        }
    }
    for (i, e) in rec.events.iter().enumerate() {
        let Event::Discard { player, cards } = e else { continue };
        let held = cards_of(rec, player).or(match &rec.events[0] {
            Event::Deal { dog, .. } => dog.iter().filter_map(|c| Card::parse(c)).collect(),
            _ => CardSet::EMPTY,
        });
        let kept = held.minus(cards.iter().filter_map(|c| Card::parse(c)).collect());
        let d = rules.discard.as_ref();
        let mut classes: Vec<(String, CardSet)> = d.map(|d| d.forbid.iter().map(|f| (f.label.clone(), f.cards)).collect()).unwrap_or_default();
        if let Some(u) = d.and_then(|d| d.unless_unavoidable.as_ref()) {
            classes.push((u.label.clone(), u.cards));
        }
        if let Some((k, _, _)) = d.and_then(|d| d.penalize.as_ref()) {
            classes.push((k.label.clone(), k.cards));
        }
        for (label, class) in classes {
            if let Some(c) = kept.and(class).iter().next() {
                let mut r = rec.clone();
                let mut new = cards.clone();
                new[0] = c.code();
                r.events[i] = Event::Discard { player: player.clone(), cards: new };
                out.push((r, format!("event {i}: {player} discards {c} ({label})")));
            }
        }
        let mut r = rec.clone();
        r.events[i] = Event::Discard { player: player.clone(), cards: cards[1..].to_vec() };
        out.push((r, format!("event {i}: {player} discards one card too few")));
    }
    // Declarations: shows that break each requirement, and a declaration by the wrong player. Made
    // before the first card, or one made at the declarer's first card (`when first-play`) before his.
    let first_play = rec.events.iter().position(|e| matches!(e, Event::Play { .. }));
    if let Some(first) = first_play {
        for d in &rules.declarations {
            for p in &rec.players {
                let at = match d.when {
                    When::FirstPlay => rec.events.iter().position(|e| matches!(e, Event::Play { player, .. } if player.as_str() == p.as_str())).unwrap_or(first),
                    _ => first,
                };
                let hand = cards_of(rec, p).and(d.shows);
                for size in [hand.len(), hand.len().saturating_sub(1), 3, 11] {
                    if size > hand.len() {
                        continue;
                    }
                    let shown = hand.iter().take(size).map(|c| c.code()).collect();
                    let mut r = rec.clone();
                    r.events.insert(at, Event::Declare { player: p.as_str().into(), declaration: d.name.as_str().into(), cards: shown });
                    out.push((r, format!("event {at}: {p} declares a {} showing {size} cards", d.label)));
                }
            }
        }
        let at = first;
        // A play out of turn: the second play of the game moved before the first.
        let plays: Vec<usize> = rec.events.iter().enumerate().filter(|(_, e)| matches!(e, Event::Play { .. })).map(|(i, _)| i).take(2).collect();
        if plays.len() == 2 {
            let mut r = rec.clone();
            r.events.swap(plays[0], plays[1]);
            out.push((r, format!("events {} and {} (the first two plays) swapped", plays[0], plays[1])));
        }
        // A card the player does not hold.
        if let Event::Play { player, .. } = &rec.events[at] {
            let other = rec.players.iter().find(|q| q.as_str() != player.as_str()).expect("two players");
            if let Some(c) = cards_of(rec, other).iter().next() {
                let mut r = rec.clone();
                r.events[at] = Event::Play { player: player.clone(), card: c.code() };
                out.push((r, format!("event {at}: {player} plays {c}, a card of {other}'s")));
            }
        }
    }
    out
}

/// The players dealt a hand, in the record's order: all of them, but the dealer where he sits out.
fn seats(rec: &GameRecord) -> Vec<String> {
    let Event::Deal { hands, .. } = &rec.events[0] else { return rec.players.clone() };
    rec.players.iter().filter(|p| hands.contains_key(p.as_str())).cloned().collect()
}

/// Records that cannot be replayed at all, each with what is wrong.
fn malformed(id: &str, rec: &GameRecord) -> Vec<(&'static str, GameRecord)> {
    let mut out = vec![];
    let Event::Deal { hands, dog, cut, piles, packets } = &rec.events[0] else { return out };
    let seats = seats(rec);
    let first = seats[0].clone();
    type Hands = BTreeMap<Text, Vec<Text>>;
    let mut with = |name: &'static str, what: &str, f: &dyn Fn(&mut Hands, &mut GameRecord)| {
        let mut r = rec.clone();
        let mut h = hands.clone();
        f(&mut h, &mut r);
        if matches!(r.events[0], Event::Deal { .. }) {
            // A changed hand no longer follows the recorded order of the deal: leave the order out, so
            // that the record shows one defect.
            let packets = if h == *hands { packets.clone() } else { vec![] };
            r.events[0] = Event::Deal { hands: h, dog: dog.clone(), cut: cut.clone(), piles: piles.clone(), packets };
        }
        r.description = Some(format!("Malformed {id} record: {what}"));
        out.push((name, r));
    };
    with("unknown-card", "a hand holds the unknown card code 15X", &|h, _| h.get_mut(first.as_str()).expect("hand")[0] = "15X".into());
    with("card-twice", "a card is dealt to two players", &|h, _| {
        let c = h[seats[1].as_str()][0].clone();
        h.get_mut(seats[0].as_str()).expect("hand")[0] = c;
    });
    with("wrong-hand-size", "a hand is one card short", &|h, _| {
        h.get_mut(first.as_str()).expect("hand").pop();
    });
    with("unknown-player", "a play by a player who is not at the table", &|_, r| {
        if let Some(i) = r.events.iter().position(|e| matches!(e, Event::Play { .. })) {
            if let Event::Play { card, .. } = r.events[i].clone() {
                r.events[i] = Event::Play { player: "Zoe".into(), card };
            }
        }
    });
    if !packets.is_empty() {
        let mut with_packets = |name: &'static str, what: &str, f: &dyn Fn(&mut Vec<Packet>)| {
            let mut r = rec.clone();
            if let Event::Deal { packets, .. } = &mut r.events[0] {
                f(packets);
            }
            r.description = Some(format!("Malformed {id} record: {what}"));
            out.push((name, r));
        };
        // The first card of the first packet dealt again in place of the second packet's first.
        with_packets("packets-card-twice", "the order of the deal gives a card twice and leaves one out", &|p| p[1].cards[0] = p[0].cards[0].clone());
        // The first packet and the next one to another player trade their first cards.
        with_packets("packets-disagree", "the order of the deal gives two players each a card of the other's hand", &|p| {
            let j = (1..p.len()).find(|&j| p[j].to.is_some() && p[j].to != p[0].to).expect("packets to two players");
            let (a, b) = (p[0].cards[0].clone(), p[j].cards[0].clone());
            (p[0].cards[0], p[j].cards[0]) = (b, a);
        });
    }
    out
}

/// How a steered game picks its moves: each chooser sees the game and the legal choices and may pick
/// one (`None`: chosen at random among the legal ones). Discards are random.
struct Steer<'a> {
    bid: &'a dyn Fn(&Game, u8, &[String]) -> Option<String>,
    call: &'a dyn Fn(&Game, u8, &[String]) -> Option<String>,
    play: &'a dyn Fn(&Game, u8, CardSet) -> Option<Card>,
}

/// Plays `deal` out at the table `players` (`dealer` dealing) with the moves `steer` picks, checking
/// each with the interpreter, as the simulator does. `None` when a move is refused or the deal is
/// annulled.
fn steered(
    rules: &Ruleset,
    players: &[&str],
    dealer: usize,
    deal: Event,
    options: &BTreeMap<String, serde_json::Value>,
    steer: &Steer,
    rng: &mut ChaCha8Rng,
) -> Option<GameRecord> {
    use rand::seq::SliceRandom;
    let names: Vec<String> = players.iter().map(|s| s.to_string()).collect();
    let setup = Setup::new(rules, names.len(), options).ok()?;
    let mut game = Game::new(&setup, &names, dealer as u8);
    let mut events = vec![];
    game.apply(0, &deal).ok()?;
    events.push(deal);
    while let Some(next) = game.next() {
        let p = names.iter().position(|n| **n == *next.player)? as u8;
        let who: Text = next.player.as_ref().into();
        let e = match game.phase {
            Phase::Bidding => Event::Bid { player: who, bid: (steer.bid)(&game, p, &next.legal).or_else(|| next.legal.choose(rng).cloned())?.as_str().into() },
            Phase::Call => Event::Call { player: who, card: (steer.call)(&game, p, &next.legal).or_else(|| next.legal.choose(rng).cloned())?.as_str().into() },
            Phase::Discard => {
                let mut pool: Vec<Card> = game.discardable(p).iter().collect();
                pool.shuffle(rng);
                Event::Discard { player: who, cards: pool.iter().take(next.count.unwrap_or(0)).map(|c| c.code()).collect() }
            }
            _ => {
                let legal = game.legal(p);
                let c = (steer.play)(&game, p, legal).or_else(|| legal.nth(rand::Rng::gen_range(rng, 0..legal.len())))?;
                Event::Play { player: who, card: c.code() }
            }
        };
        game.apply(events.len(), &e).ok()?;
        events.push(e);
    }
    Some(GameRecord {
        ruleset: rules.id.clone(),
        options: options.clone(),
        players: names.clone(),
        dealer: names[dealer].clone(),
        pots: BTreeMap::new(),
        standing: BTreeMap::new(),
        description: None,
        events,
    })
}

/// A card's strength for a steered player: trumps above suits, a suit's cards by rank, the Fool
/// lowest.
fn strength(c: Card) -> u8 {
    match c.kind() {
        tarot_engine::Kind::Trump(n) => 100 + n,
        tarot_engine::Kind::Fool => 0,
        tarot_engine::Kind::Suited(_, r) => r,
    }
}

fn highest(set: CardSet) -> Option<Card> {
    set.iter().max_by_key(|c| strength(*c))
}

fn lowest(set: CardSet) -> Option<Card> {
    set.iter().min_by_key(|c| strength(*c))
}

/// A deal of these hands (by player) and dog, with no recorded order.
fn deal_of(hands: &[(&str, CardSet)], dog: CardSet) -> Event {
    let hands = hands.iter().map(|(p, h)| (Text::from(*p), h.iter().map(|c| c.code()).collect())).collect();
    Event::Deal { hands, dog: dog.iter().map(|c| c.code()).collect(), cut: None, piles: BTreeMap::new(), packets: vec![] }
}

/// Deals `rest` at random: `sizes[i]` cards to each hand after those already fixed, the remainder to
/// the dog.
fn deal_rest(rest: CardSet, sizes: &[usize], rng: &mut ChaCha8Rng) -> (Vec<CardSet>, CardSet) {
    use rand::seq::SliceRandom;
    let mut cards: Vec<Card> = rest.iter().collect();
    cards.shuffle(rng);
    let mut at = 0;
    let hands = sizes
        .iter()
        .map(|&k| {
            let h = cards[at..at + k].iter().copied().collect();
            at += k;
            h
        })
        .collect();
    (hands, cards[at..].iter().copied().collect())
}

/// Games arranged to show the verdict bugs of issues 14 and 26, each fixed in the engine or the rules: every
/// one replays differently without its fix (the snapshots of `tests/it/fixtures.rs` pin the verdicts).
fn regressions(registry: &Registry, root: &Path) {
    let none = BTreeMap::new();
    // fft-5p, garde contre: the called partner is the first player who is not the taker; the dog,
    // holding an oudler, counts for the defence all the same.
    let rules = registry.get("fft-5p").expect("fft-5p");
    let players = ["Ann", "Bob", "Cid", "Dan", "Eve"];
    let mut rng = ChaCha8Rng::seed_from_u64(141);
    let mut found = None;
    for _ in 0..2000 {
        let (hands, dog) = deal_rest(rules.pack.cards, &[15; 5], &mut rng);
        if dog.and(CardSet::single(Card::trump(21)).or(CardSet::single(tarot_engine::FOOL))).is_empty() {
            continue;
        }
        let named: Vec<(&str, CardSet)> = players.iter().copied().zip(hands.iter().copied()).collect();
        let ann = hands[0];
        let steer = Steer {
            bid: &|_, p, legal| Some(if p == 2 && legal.iter().any(|b| b == "garde-contre") { "garde-contre".into() } else { "pass".into() }),
            call: &|_, _, legal| legal.iter().find(|c| Card::parse(c).is_some_and(|c| ann.contains(c))).cloned(),
            play: &|_, _, _| None,
        };
        let Some(game) = steered(rules, &players, 0, deal_of(&named, dog), &none, &steer, &mut rng) else { continue };
        let v = replay(rules, &game).expect("replayable");
        if v.status == Status::Valid && v.outcome.as_ref().and_then(|o| o.partner.as_deref()) == Some("Ann") {
            found = Some(game);
            break;
        }
    }
    let mut game = found.expect("a garde contre whose partner is Ann");
    game.description = Some(
        "Garde contre at five: Cid takes and calls a king of Ann's, the first player who is not the taker; the dog (with an oudler) counts for the defence (FFT \"Le Chien et l'Ecart\"), not for Ann (issue 14, item 1)"
            .into(),
    );
    write(&root.join("fft-5p/valid/garde-contre-dog-to-defence.json"), &game);
    defence_slams(registry, root);
    after_annulment(root);
    stray_imperial(registry, root);
    jack_call(registry, root);
    misere_declared(registry, root);
    fool_shut_out(registry, root, "basic-partners", 4, "fool-kept-by-the-side.json", true);
    fool_shut_out(registry, root, "basic", 3, "fool-shut-out.json", false);
    too_many_trumps(registry, root);
    poignee_timings(registry, root);
    poignee_with_the_discard(registry, root);
    marolles_declarations(registry, root);
}

fn set_of(codes: &str) -> CardSet {
    codes.split_whitespace().map(|c| Card::parse(c).unwrap_or_else(|| panic!("{c}"))).collect()
}

/// fft-4p: with the dog, Bob holds the four kings, the three oudlers, twelve other trumps and five cards
/// that may go (2H 3H 4C 7D QS): taking a garde, he must lay away one trump with them. He lays away four
/// (T12 T14 T17 T20) and keeps 2H 7D QS. « On n'Ecarte des Atouts que si cela s'avère indispensable »:
/// only as many as must go (issue 26, item 1). The record stops at the discard.
fn too_many_trumps(registry: &Registry, root: &Path) {
    let rules = registry.get("fft-4p").expect("fft-4p");
    let players = ["Ann", "Bob", "Cid", "Dan"];
    let bob = set_of("KS KH KD KC T1 T21 EX 2H 3H 4C 7D QS T3 T5 T6 T8 T9 T10 T11 T12 T14 T15 T17 T20");
    let dog = set_of("T3 T5 T6 T8 3H 4C");
    let mut rng = ChaCha8Rng::seed_from_u64(261);
    let (hands, _) = deal_rest(rules.pack.cards.minus(bob), &[18; 3], &mut rng);
    let named = [("Ann", hands[0]), ("Bob", bob.minus(dog)), ("Cid", hands[1]), ("Dan", hands[2])];
    let names: Vec<String> = players.iter().map(|s| s.to_string()).collect();
    let none = BTreeMap::new();
    let setup = Setup::new(rules, 4, &none).expect("setup");
    let mut game = Game::new(&setup, &names, 0);
    let mut events = vec![deal_of(&named, dog)];
    assert!(game.apply(0, &events[0]).is_ok(), "the deal");
    while game.phase == Phase::Bidding {
        let next = game.next().expect("a bid");
        let bid = if &*next.player == "Bob" { "garde" } else { "pass" };
        let e = Event::Bid { player: next.player.as_ref().into(), bid: bid.into() };
        assert!(game.apply(events.len(), &e).is_ok(), "a bid");
        events.push(e);
    }
    let bad = Event::Discard { player: "Bob".into(), cards: ["3H", "4C", "T12", "T14", "T17", "T20"].iter().map(|c| Text::from(*c)).collect() };
    events.push(bad);
    let game = GameRecord {
        ruleset: rules.id.clone(),
        options: none.clone(),
        players: names.clone(),
        dealer: "Ann".into(),
        pots: BTreeMap::new(),
        standing: BTreeMap::new(),
        description: Some(
            "Bob takes a garde and, with the dog, holds five cards that may go besides kings, oudlers and trumps: one trump must go with them. He lays away four (T12 T14 T17 T20) and keeps 2H 7D QS (FFT \"Le Chien et l'Ecart\": « On n'Ecarte des Atouts que si cela s'avère indispensable »; issue 26, item 1)".into(),
        ),
        events,
    };
    let v = replay(rules, &game).expect("replayable");
    assert_eq!(v.violation.map(|x| x.rule.to_string()).as_deref(), Some("discard.unless-unavoidable"));
    write(&root.join("fft-4p/invalid/discard.unless-unavoidable--too-many-trumps.json"), &game);
}

/// fft-4p: Bob takes a garde; Cid holds T2 to T11 and Bob T12 to T21, a simple poignée each. A poignée
/// is shown « juste avant de jouer sa première carte »: at the declarer's own turn in the first trick.
/// The same played game with a poignée declared at three wrong moments (a defender's before the taker's
/// discard, the taker's before his own discard, a defender's before the opening lead, which is not his)
/// and at the right one (Cid's, at his turn in the first trick) (issue 26, item 2).
fn poignee_timings(registry: &Registry, root: &Path) {
    let rules = registry.get("fft-4p").expect("fft-4p");
    let players = ["Ann", "Bob", "Cid", "Dan"];
    let (bob, cid) = (set_of("T12 T13 T14 T15 T16 T17 T18 T19 T20 T21"), set_of("T2 T3 T4 T5 T6 T7 T8 T9 T10 T11"));
    let none = BTreeMap::new();
    let mut rng = ChaCha8Rng::seed_from_u64(262);
    let steer = Steer { bid: &|_, p, _| Some(if p == 1 { "garde".into() } else { "pass".into() }), call: &|_, _, _| None, play: &|_, _, _| None };
    let game = loop {
        let (hands, dog) = deal_rest(rules.pack.cards.minus(bob).minus(cid), &[18, 8, 8, 18], &mut rng);
        let named = [("Ann", hands[0]), ("Bob", hands[1].or(bob)), ("Cid", hands[2].or(cid)), ("Dan", hands[3])];
        if let Some(game) = steered(rules, &players, 0, deal_of(&named, dog), &none, &steer, &mut rng) {
            if replay(rules, &game).is_ok_and(|v| v.status == Status::Valid) {
                break game;
            }
        }
    };
    let discard = game.events.iter().position(|e| matches!(e, Event::Discard { .. })).expect("Bob's discard");
    let first = game.events.iter().position(|e| matches!(e, Event::Play { .. })).expect("the opening lead");
    let cids = game.events.iter().position(|e| matches!(e, Event::Play { player, .. } if player.as_str() == "Cid")).expect("Cid's first card");
    let poignee = |who: &str, shown: CardSet| Event::Declare { player: who.into(), declaration: "poignee".into(), cards: shown.iter().map(|c| c.code()).collect() };
    let cases = [
        ("invalid/declaration.poignee--defender-before-the-discard.json", discard, "Cid", cid, "Cid, a defender, shows his poignée before Bob has made his discard"),
        ("invalid/declaration.poignee--taker-before-his-discard.json", discard, "Bob", bob, "Bob, the taker, shows his poignée before making his discard"),
        ("invalid/declaration.poignee--before-the-opening-lead.json", first, "Cid", cid, "Cid shows his poignée after the discard, before the opening lead, which is not his"),
        ("valid/poignee-at-his-turn.json", cids, "Cid", cid, "Cid shows his poignée at his turn in the first trick, before his first card"),
    ];
    for (file, at, who, shown, what) in cases {
        let mut rec = game.clone();
        rec.events.insert(at, poignee(who, shown));
        rec.description = Some(format!(
            "{what}: a poignée is shown « juste avant de jouer sa première carte » (FFT \"La Poignée\"; seed 003: \"right before playing their first card\"), at the declarer's own turn in the first trick (issue 26, item 2)"
        ));
        let v = replay(rules, &rec).expect("replayable");
        let rule = file.strip_prefix("invalid/").map(|f| f.split_once("--").map_or(f, |(r, _)| r));
        assert_eq!(v.violation.map(|x| x.rule.to_string()).as_deref(), rule, "{file}");
        write(&root.join("fft-4p").join(file), &rec);
    }
}

/// fft-4p: with the dog, Bob holds the four kings, fifteen trumps (T7 to T21) and five cards that may
/// go. Taking a garde he must lay away one trump (T7) with the five; at his first card he shows his
/// fourteen trumps and the one laid away, a triple poignée: « Lorsque le preneur possède 4 Rois et 15
/// atouts, l'atout écarté doit être remontré avec la triple Poignée qui est alors comptabilisée » (FFT
/// "La Poignée"). Refused as showing a card he does not hold before the rule file said `from
/// hand-and-discard`.
fn poignee_with_the_discard(registry: &Registry, root: &Path) {
    use rand::seq::IteratorRandom;
    let rules = registry.get("fft-4p").expect("fft-4p");
    let players = ["Ann", "Bob", "Cid", "Dan"];
    let trumps = set_of("T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17 T18 T19 T20 T21");
    let bob = trumps.or(set_of("KS KH KD KC 2H 3H 4C 7D QS"));
    let dog = set_of("T9 T13 KD 3H 4C QS");
    let mut rng = ChaCha8Rng::seed_from_u64(264);
    let (hands, _) = deal_rest(rules.pack.cards.minus(bob), &[18; 3], &mut rng);
    let named = [("Ann", hands[0]), ("Bob", bob.minus(dog)), ("Cid", hands[1]), ("Dan", hands[2])];
    let names: Vec<String> = players.iter().map(|s| s.to_string()).collect();
    let none = BTreeMap::new();
    let setup = Setup::new(rules, 4, &none).expect("setup");
    let mut game = Game::new(&setup, &names, 0);
    let mut events = vec![deal_of(&named, dog)];
    assert!(game.apply(0, &events[0]).is_ok(), "the deal");
    let poignee = Event::Declare { player: "Bob".into(), declaration: "poignee".into(), cards: trumps.iter().map(|c| c.code()).collect() };
    let mut shown = false;
    while let Some(next) = game.next() {
        let who: Text = next.player.as_ref().into();
        let e = match game.phase {
            Phase::Bidding => Event::Bid { bid: if &*who == "Bob" { "garde" } else { "pass" }.into(), player: who },
            Phase::Discard => Event::Discard { player: who, cards: ["2H", "3H", "4C", "7D", "QS", "T7"].iter().map(|c| Text::from(*c)).collect() },
            _ if &*who == "Bob" && !shown => {
                shown = true;
                poignee.clone()
            }
            _ => {
                let p = names.iter().position(|n| **n == *who).expect("a player") as u8;
                Event::Play { player: who, card: game.legal(p).iter().choose(&mut rng).expect("a card").code() }
            }
        };
        assert!(game.apply(events.len(), &e).is_ok(), "{e:?}");
        events.push(e);
    }
    let game = GameRecord {
        ruleset: rules.id.clone(),
        options: none,
        players: names,
        dealer: "Ann".into(),
        pots: BTreeMap::new(),
        standing: BTreeMap::new(),
        description: Some(
            "Bob takes a garde holding, with the dog, the four kings and fifteen trumps: he must lay away one (T7), and shows it with his fourteen others in a triple poignée at his first card (FFT \"La Poignée\": « Lorsque le preneur possède 4 Rois et 15 atouts, l'atout écarté doit être remontré avec la triple Poignée qui est alors comptabilisée »)".into(),
        ),
        events,
    };
    let v = replay(rules, &game).expect("replayable");
    assert_eq!(v.status, Status::Valid, "{}", v.to_text());
    write(&root.join("fft-4p/valid/triple-poignee-with-the-trump-laid-away.json"), &game);
}

/// Marolles: every player discards, then « In turn, players may now declare ... cards they hold in their
/// hand » (seed 001). Cid deals, holding the four coin courts. Two games: Cid declares his Imperial
/// before the discards and then lays away a coin court; and two players' declarations made out of turn,
/// the later in turn first (issue 26, item 3).
fn marolles_declarations(registry: &Registry, root: &Path) {
    let rules = registry.get("marolles-1637").expect("marolles-1637");
    let table: Vec<String> = ["Ann", "Bob", "Cid"].iter().map(|p| p.to_string()).collect();
    let coins = set_of("KD QD CD JD");
    let none = BTreeMap::new();
    let mut rng = ChaCha8Rng::seed_from_u64(263);
    // Cid's Imperial before the discards, one of its cards then laid away by him; his hand holds no
    // other Imperial, so the show is the most he may declare.
    let early = loop {
        let (hands, _) = deal_rest(rules.pack.cards.minus(coins), &[21, 21, 20], &mut rng);
        let cid = hands[2].or(coins);
        let others = [set_of("KS QS CS JS"), set_of("KH QH CH JH"), set_of("KC QC CC JC"), set_of("QS QH QD QC"), set_of("CS CH CD CC"), set_of("JS JH JD JC")];
        if others.iter().any(|o| cid.and(*o).len() == 4) {
            continue;
        }
        let cut = cid.iter().next().expect("a card").code();
        let Event::Deal { hands, dog, piles, packets, .. } = deal_of(&[("Ann", hands[0]), ("Bob", hands[1]), ("Cid", cid)], CardSet::EMPTY) else { unreachable!() };
        let deal = Event::Deal { hands, dog, cut: Some(cut), piles, packets };
        let Ok(mut game) = tarot_engine::random_game_from(rules, &table, 2, deal, &none, &mut rng) else { continue };
        let lays_away = game
            .events
            .iter()
            .any(|e| matches!(e, Event::Discard { player, cards } if player.as_str() == "Cid" && cards.iter().any(|c| Card::parse(c).is_some_and(|c| coins.contains(c)))));
        if !lays_away || !replay(rules, &game).is_ok_and(|v| v.status == Status::Valid) {
            continue;
        }
        let at = game.events.iter().position(|e| matches!(e, Event::Discard { .. })).expect("the discards");
        game.events.insert(at, Event::Declare { player: "Cid".into(), declaration: "imperials".into(), cards: coins.iter().map(|c| c.code()).collect() });
        break game;
    };
    let mut early = early;
    early.description = Some(
        "Cid, the dealer, declares an Imperial of the four coin courts before the discards, then lays away one of them: the declarations come once every discard is made (seed 001: \"The two non-dealers each discard one card and the dealer discards four ... In turn, players may now declare specific combinations of cards they hold in their hand\"; issue 26, item 3)".into(),
    );
    let v = replay(rules, &early).expect("replayable");
    assert_eq!(v.violation.map(|x| x.rule.to_string()).as_deref(), Some("declaration.imperials"));
    write(&root.join("marolles-1637/invalid/declaration.imperials--before-the-discards.json"), &early);
    // Two players' declarations, the later in turn's moved before the earlier's.
    for seed in 0..2000 {
        let Ok(game) = random_game(rules, 3, &none, &mut rng) else { continue };
        let declares: Vec<(usize, &str)> =
            game.events.iter().enumerate().filter_map(|(i, e)| if let Event::Declare { player, .. } = e { Some((i, player.as_str())) } else { None }).collect();
        let Some(&(i, first)) = declares.first() else { continue };
        let Some(&(j, _)) = declares.iter().find(|(_, p)| *p != first) else { continue };
        let mut rec = game.clone();
        let moved = rec.events.remove(j);
        rec.events.insert(i, moved);
        let Ok(v) = replay(rules, &rec) else { continue };
        let Some(rule) = v.violation.map(|x| x.rule.to_string()).filter(|r| r.ends_with(".in-turn")) else { continue };
        rec.description = Some(format!(
            "Game {seed} of seed 263 of `make_fixtures`, with a declaration of a player later in turn moved before the first declaration of a player earlier in turn: declarations are made in turn from first hand (seed 001: \"In turn, players may now declare\"; issue 26, item 3)"
        ));
        write(&root.join("marolles-1637/invalid").join(format!("{rule}--later-player-first.json")), &rec);
        return;
    }
    panic!("no Marolles game with declarations by two players");
}

/// Basic Tarot's Fool (`shut_out = "to-winner"`): Cid holds it with the weakest cards and plays his
/// lowest card, the others their highest. With partners, Cid takes no trick but his partner Ann does:
/// "took no trick" is said of the side, which keeps the Fool. Alone, Cid takes no trick and gives the
/// Fool to the winner of its trick (issue 14, item 7; `tests/it/variants.rs` replays this game where the
/// Fool is exchanged for an empty card too).
fn fool_shut_out(registry: &Registry, root: &Path, id: &str, n: usize, file: &str, partner_wins: bool) {
    let rules = registry.get(id).expect("ruleset");
    let players = &["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"][..n];
    let none = BTreeMap::new();
    let setup = Setup::new(rules, n, &none).expect("setup");
    let fool = tarot_engine::FOOL;
    let numerals: CardSet = rules.pack.cards.iter().filter(|c| matches!(c.kind(), tarot_engine::Kind::Suited(_, r) if r <= 10)).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(147);
    for _ in 0..3000 {
        // Cid: the Fool and numerals only; the rest dealt at random.
        let (mine, _) = deal_rest(numerals, &[setup.hand - 1], &mut rng);
        let cid = mine[0].or(CardSet::single(fool));
        let sizes: Vec<usize> = (0..n).filter(|&p| p != 2).map(|p| if p == 0 { setup.dealer_hand } else { setup.hand }).collect();
        let (others, dog) = deal_rest(rules.pack.cards.minus(cid), &sizes, &mut rng);
        let mut hands: Vec<(&str, CardSet)> = vec![];
        let mut rest = others.into_iter();
        for (p, name) in players.iter().enumerate() {
            hands.push((name, if p == 2 { cid } else { rest.next().expect("a hand") }));
        }
        let steer = Steer {
            bid: &|_, _, _| None,
            call: &|_, _, _| None,
            play: &|game, p, legal| {
                if p != 2 {
                    return highest(legal.minus(CardSet::single(fool))).or(Some(fool));
                }
                // Cid plays the Fool to the first trick he does not lead, otherwise his lowest card.
                if legal.contains(fool) && !game.current.is_empty() {
                    return Some(fool);
                }
                lowest(legal.minus(CardSet::single(fool))).or(Some(fool))
            },
        };
        let Some(mut game) = steered(rules, players, 0, deal_of(&hands, dog), &none, &steer, &mut rng) else { continue };
        let v = replay(rules, &game).expect("replayable");
        let won = |who: &str| v.tricks.iter().filter(|t| &*t.winner == who).count();
        let fool_trick = v.tricks.iter().find(|t| t.cards.contains(&fool)).expect("the Fool is played");
        if v.status != Status::Valid || won("Cid") > 0 || &*fool_trick.winner == "Cid" || (partner_wins && (won("Ann") == 0 || &*fool_trick.winner == "Ann")) {
            continue;
        }
        game.description = Some(if partner_wins {
            "Partners opposite: Cid takes no trick, his partner Ann does, so their side keeps the Fool (\"took no trick\" is said of the side; issue 14, item 7)".into()
        } else {
            format!("Cid takes no trick and gives the Fool to {}, who won the trick it was played to (issue 14, item 7)", fool_trick.winner)
        });
        write(&root.join(id).join("valid").join(file), &game);
        return;
    }
    panic!("no game of {id} where Cid takes no trick");
}

/// Marolles: Ann shows an Imperial as QS JD CD QD KD, the four coin courts and a Queen that completes
/// nothing. A declaration shows exactly the cards of the combinations it claims (issue 14, item 6).
fn stray_imperial(registry: &Registry, root: &Path) {
    let rules = registry.get("marolles-1637").expect("marolles-1637");
    let players = ["Ann", "Bob", "Cid"];
    let mine: CardSet = ["QS", "JD", "CD", "QD", "KD"].iter().filter_map(|c| Card::parse(c)).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(146);
    // Cid deals (24 cards, the cut card among them); Ann, first hand, holds the five cards.
    let (hands, _) = deal_rest(rules.pack.cards.minus(mine), &[16, 21, 24], &mut rng);
    let ann = hands[0].or(mine);
    let cut = hands[2].iter().next().expect("a card").code();
    let named = [("Ann", ann), ("Bob", hands[1]), ("Cid", hands[2])];
    let Event::Deal { hands, dog, piles, packets, .. } = deal_of(&named, CardSet::EMPTY) else { unreachable!() };
    let deal = Event::Deal { hands, dog, cut: Some(cut), piles, packets };
    let table: Vec<String> = players.iter().map(|p| p.to_string()).collect();
    // Played until the discards keep Ann's five cards.
    let mut game = loop {
        let mut game = tarot_engine::random_game_from(rules, &table, 2, deal.clone(), &BTreeMap::new(), &mut rng).expect("a game");
        let at = game.events.iter().position(|e| matches!(e, Event::Play { .. } | Event::Declare { .. })).expect("play");
        game.events.truncate(at);
        game.events.push(Event::Declare { player: "Ann".into(), declaration: "imperials".into(), cards: ["QS", "JD", "CD", "QD", "KD"].iter().map(|c| Text::from(*c)).collect() });
        let v = replay(rules, &game).expect("replayable");
        if v.violation.is_some_and(|x| &*x.rule == "declaration.imperials.require.3") {
            break game;
        }
    };
    game.description = Some("Ann declares an Imperial showing QS JD CD QD KD: the four coin courts, and a Queen of swords that completes nothing (seed 001: \"All four courts of a suit or a set of four Queens, Cavaliers or Jacks\"; issue 14, item 6)".into());
    write(&root.join("marolles-1637/invalid/declaration.imperials.require.3.json"), &game);
}

/// fft-5p: Cid takes a garde holding the four kings, queens and cavaliers. At the FFT he calls a jack;
/// under seed 003's reading (option `jack_call = "alone"`) he calls nothing and plays alone, paid by
/// four (issue 14, item 8).
fn jack_call(registry: &Registry, root: &Path) {
    let rules = registry.get("fft-5p").expect("fft-5p");
    let players = ["Ann", "Bob", "Cid", "Dan", "Eve"];
    let courts: CardSet = ["K", "Q", "C"].iter().flat_map(|r| ["S", "H", "D", "C"].iter().filter_map(move |s| Card::parse(&format!("{r}{s}")))).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(148);
    for (option, file) in [("jack", "jack-call.json"), ("alone", "jack-call-alone.json")] {
        let options = BTreeMap::from([("jack_call".to_string(), serde_json::json!(option))]);
        let game = loop {
            let (mine, _) = deal_rest(rules.pack.cards.minus(courts).minus(CardSet::single(Card::trump(1))), &[3], &mut rng);
            let cid = courts.or(mine[0]);
            let (hands, dog) = deal_rest(rules.pack.cards.minus(cid), &[15; 4], &mut rng);
            let named = [("Ann", hands[0]), ("Bob", hands[1]), ("Cid", cid), ("Dan", hands[2]), ("Eve", hands[3])];
            let steer = Steer { bid: &|_, p, _| Some(if p == 2 { "garde".into() } else { "pass".into() }), call: &|_, _, _| None, play: &|_, _, _| None };
            if let Some(game) = steered(rules, &players, 0, deal_of(&named, dog), &options, &steer, &mut rng) {
                if replay(rules, &game).is_ok_and(|v| v.status == Status::Valid) {
                    break game;
                }
            }
        };
        let mut game = game;
        game.description = Some(match option {
            "jack" => "Cid takes a garde holding the four kings, queens and cavaliers, and calls a jack (FFT \"LE JEU A 5 JOUEURS\"; issue 14, item 8)".into(),
            _ => "Cid takes a garde holding the four kings, queens and cavaliers: under seed 003's reading he calls nothing and plays alone (\"A taker with all kings, queens and knights must play alone\"; issue 14, item 8)".into(),
        });
        write(&root.join("fft-5p/valid").join(file), &game);
        if option == "alone" {
            // The same game with a call after the auction: there is none to make.
            let after_bids = game.events.iter().rposition(|e| matches!(e, Event::Bid { .. })).expect("bids") + 1;
            game.events.insert(after_bids, Event::Call { player: "Cid".into(), card: "KS".into() });
            game.description = Some(
                "Cid takes a garde holding the four kings, queens and cavaliers, and calls the king of spades: under seed 003's reading there is no call to make, he plays alone"
                    .into(),
            );
            write(&root.join("fft-5p/invalid/call.callable-levels.json"), &game);
        }
    }
}

/// fft-4p-misere: a game where a misère is declared and paid by every other player (its payment was
/// otherwise exercised only by simulated games).
fn misere_declared(registry: &Registry, root: &Path) {
    let rules = registry.get("fft-4p-misere").expect("fft-4p-misere");
    let mut rng = ChaCha8Rng::seed_from_u64(149);
    for seed in 0..5000 {
        let Ok(mut game) = random_game(rules, 4, &BTreeMap::new(), &mut rng) else { continue };
        let declared = game.events.iter().any(|e| matches!(e, Event::Declare { declaration, .. } if declaration == "misere"));
        if declared && replay(rules, &game).is_ok_and(|v| v.status == Status::Valid) {
            game.description = Some(format!("A random legal game where a misère is declared, paid 10 by every other player: game {seed} of seed 149 of `make_fixtures`"));
            write(&root.join("fft-4p-misere/valid/misere.json"), &game);
            return;
        }
    }
    panic!("no misère in 5,000 random games");
}

/// An annulled deal is over: a record that goes on after it (bids after a petit sec, a card played
/// after everyone passed) cannot be replayed, as one that goes on after the last trick cannot.
fn after_annulment(root: &Path) {
    let read = |path: PathBuf| -> GameRecord { serde_json::from_str(&std::fs::read_to_string(&path).expect("an annulled fixture")).expect("a record") };
    let mut rec = read(root.join("fft-4p/annulled/annul.petit_sec.json"));
    let first = &rec.players[(rec.players.iter().position(|p| *p == rec.dealer).expect("the dealer") + 1) % rec.players.len()];
    rec.events.push(Event::Bid { player: first.as_str().into(), bid: "garde".into() });
    rec.description = Some("A petit sec annuls the deal, and the record goes on with a bid (issue 14, item 5)".into());
    write(&root.join("fft-4p/malformed/bid-after-annulment.json"), &rec);
    let mut rec = read(root.join("fft-4p/annulled/bidding.all-pass.json"));
    let Some(Event::Deal { hands, .. }) = rec.events.first() else { panic!("a deal first") };
    let first = rec.players[(rec.players.iter().position(|p| *p == rec.dealer).expect("the dealer") + 1) % rec.players.len()].clone();
    let card = hands[first.as_str()][0].clone();
    rec.events.push(Event::Play { player: first.as_str().into(), card });
    rec.description = Some("Every player passes, which annuls the deal, and the record goes on with a card played (issue 14, item 5)".into());
    write(&root.join("fft-4p/malformed/play-after-annulment.json"), &rec);
}

/// fft-4p: Bob takes a garde contre holding the Petit, the 2 of trumps and the four lowest cards of
/// each suit; the defence takes every trick. Two endings: a defender leads the Excuse to the last
/// trick after capturing the Petit in the trick before (no petit au bout for the defence: the Petit
/// did not win that trick), and a defender plays the Excuse, not leading, to the last trick (it wins
/// it and stays with the defence: a defence chelem).
fn defence_slams(registry: &Registry, root: &Path) {
    let rules = registry.get("fft-4p").expect("fft-4p");
    let players = ["Ann", "Bob", "Cid", "Dan"];
    let (t1, t2, fool) = (Card::trump(1), Card::trump(2), tarot_engine::FOOL);
    let low: CardSet = (0..4).flat_map(|s| (1..=4).map(move |r| Card::suited(s, r))).collect();
    let bob = low.or(CardSet::single(t1)).or(CardSet::single(t2));
    let none = BTreeMap::new();
    let mut rng = ChaCha8Rng::seed_from_u64(143);
    let (mut led, mut played) = (None, None);
    for _ in 0..3000 {
        let (hands, dog) = deal_rest(rules.pack.cards.minus(bob), &[18; 3], &mut rng);
        let named = [("Ann", hands[0]), ("Bob", bob), ("Cid", hands[1]), ("Dan", hands[2])];
        let steer = Steer {
            bid: &|_, p, _| Some(if p == 1 { "garde-contre".into() } else { "pass".into() }),
            call: &|_, _, _| None,
            play: &|game, p, legal| {
                let taker = game.hands[1];
                if p == 1 {
                    // The taker keeps the Petit as long as he can and plays his lowest card.
                    let others = legal.minus(CardSet::single(t1));
                    return lowest(if others.is_empty() { legal } else { others });
                }
                // Defenders keep the Excuse to the end and play their strongest card; leading, they
                // draw the taker's trumps (the 2 first, the Petit in the trick before the last) and
                // otherwise lead a suit he still holds.
                let no_fool = legal.minus(CardSet::single(fool));
                if no_fool.is_empty() {
                    return Some(fool);
                }
                if game.current.is_empty() {
                    let trumps = no_fool.and(CardSet::trumps());
                    if taker.contains(t2) || (taker.len() == 2 && taker.contains(t1)) {
                        return highest(if trumps.is_empty() { no_fool } else { trumps });
                    }
                    let his: CardSet = (0..4u8).filter(|&s| !taker.and(CardSet::of_lane(s)).is_empty()).fold(CardSet::EMPTY, |a, s| a.or(CardSet::of_lane(s)));
                    let mine = no_fool.and(his);
                    return highest(if mine.is_empty() { no_fool } else { mine });
                }
                highest(no_fool)
            },
        };
        let Some(game) = steered(rules, &players, 0, deal_of(&named, dog), &none, &steer, &mut rng) else { continue };
        let v = replay(rules, &game).expect("replayable");
        if v.status != Status::Valid || v.tricks.len() != 18 || v.tricks.iter().any(|t| &*t.winner == "Bob") {
            continue;
        }
        let (penult, last) = (&v.tricks[16], &v.tricks[17]);
        if last.cards[0] == fool && penult.cards.contains(&t1) && led.is_none() {
            led = Some(game);
        } else if last.cards[0] != fool && last.cards.contains(&fool) && played.is_none() {
            played = Some(game);
        }
        if led.is_some() && played.is_some() {
            break;
        }
    }
    let mut game = led.expect("a defence chelem with the Excuse led to the last trick and the Petit captured in the trick before");
    game.description = Some(
        "A defence chelem: the defence captures Bob's Petit in the 17th trick and leads the Excuse to the last. The Petit did not win the trick before the last, so there is no petit au bout (seed 000: \"if you won with the 1 of trumps in the second to last trick\"; seed 003: \"(and won the trick)\"; issue 14, item 4)"
            .into(),
    );
    write(&root.join("fft-4p/valid/excuse-chelem-petit-captured.json"), &game);
    let mut game = played.expect("a defence chelem with the Excuse played, not led, to the last trick");
    game.description = Some(
        "The defence takes the first 17 tricks and a defender plays the Excuse, not leading, to the last: it wins that trick and stays with the defence, a defence chelem (FFT: « l'Excuse ne doit pas être jouée à la dernière levée, sauf en cas de Chelem »; seed 003: \"it never changes sides, unless played to the last trick and the side playing it has not won every trick\"; issue 14, item 3)"
            .into(),
    );
    write(&root.join("fft-4p/valid/excuse-played-last-by-slam-side.json"), &game);
}
