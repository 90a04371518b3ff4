//! The compiler never ignores what it is told: every construct of `grammar/REFERENCE.md`, changed in a
//! built-in rule file, either changes a verdict (over the ruleset's fixtures and simulated games), or,
//! for a construct read across a table's deals, whether one of those games may follow another, or is
//! refused with a diagnostic that says what is wrong. One table, one `check`; a second test checks that
//! every construct the reference lists has a row.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::OnceLock;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use tarot_engine::compile;
use tarot_engine::ir::Ruleset;
use tarot_engine::{illegal_variant, next_follows, random_game};
use tarot_engine::{parse_record, replay, Event, GameRecord, Registry, Verdict};

/// What a changed construct must do.
enum Expect {
    /// Compile, and change the verdict of at least one game of the ruleset.
    Changes,
    /// Compile, and change whether one game of the ruleset may follow another at a table (a
    /// session's next deal, `next_follows`): a construct read across deals, not within one.
    ChangesFollowing,
    /// Be refused, with a diagnostic containing this text.
    Refused(&'static str),
}
use Expect::*;

/// A change to a rule file: in `ruleset`'s file, the text `find` (which must occur exactly once)
/// becomes `replace`.
struct Mutation {
    ruleset: &'static str,
    find: &'static str,
    replace: String,
    /// Added at the end of the file.
    append: String,
    /// The ruleset compiled and tried, when not the one changed (a child of it).
    compile_as: Option<&'static str>,
}

fn m(ruleset: &'static str, find: &'static str, replace: impl Into<String>) -> Mutation {
    Mutation { ruleset, find, replace: replace.into(), append: String::new(), compile_as: None }
}

/// The line that lets Dobbm's declarer say Retour again, with the start of the next, which makes
/// it occur once in the file; `retour` puts other lines in its place.
const RETOUR_REPEATS: &str = "  repeats                                             @P \"Schwacher\"\n  require \"after a Schwacher";

fn retour(lines: &str) -> String {
    format!("{lines}  require \"after a Schwacher")
}

/// A term added to fft-4p's score: its value must change some game's score.
fn probe(formula: &str) -> Mutation {
    m("fft-4p", "  pay defence to attack = total", format!("  term probe \"probe\" = {formula}\n  pay defence to attack = total"))
}

/// The games a ruleset is tried on: its fixtures, and simulated games at every table size.
/// Each ruleset's are made once, by the first row that needs them (the rows are checked on every
/// core at once: `OnceLock` makes the others wait for it).
struct Games {
    played: BTreeMap<&'static str, OnceLock<Played>>,
    builtin: Registry,
}

struct Played {
    games: Vec<GameRecord>,
    /// Their verdicts under the built-in rules.
    before: Vec<String>,
}

impl Games {
    fn of(&self, id: &str) -> &Played {
        self.played[id].get_or_init(|| {
            let mut games = vec![];
            let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures").join(id);
            let mut stack = vec![dir];
            while let Some(d) = stack.pop() {
                for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                    let p = e.path();
                    if p.is_dir() {
                        stack.push(p);
                    } else if p.extension().is_some_and(|x| x == "json") {
                        if let Ok(rec) = parse_record(&std::fs::read_to_string(&p).unwrap()) {
                            games.push(rec);
                        }
                    }
                }
            }
            let rules = self.builtin.get(id).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(14);
            for n in rules.players.0..=rules.players.1 {
                // More games where the cases are rare: a misère hand, the Fool kept to the last trick.
                let k = match id {
                    "fft-4p-misere" => 400,
                    "marolles-1637" => 150,
                    "fft-4p" => 80,
                    _ => 40,
                };
                // (A ruleset without declarations has no late one to look for.)
                let mut rare = (false, rules.declarations.is_empty());
                for i in 0.. {
                    // Past k games, only until a game shows each rare case, or give up.
                    if i >= k && (rare == (true, true) || i >= k + 3000) {
                        break;
                    }
                    let Ok(g) = random_game(rules, n, &BTreeMap::new(), &mut rng) else { continue };
                    let plays: Vec<&Event> = g.events.iter().filter(|e| matches!(e, Event::Play { .. })).collect();
                    let fool_last = plays.iter().rev().take(n).any(|e| matches!(e, Event::Play { card, .. } if card.as_str() == "EX"));
                    let leader = match plays.first() {
                        Some(Event::Play { player, .. }) => player.clone(),
                        _ => continue,
                    };
                    let late: Vec<Event> = g.events.iter().filter(|e| matches!(e, Event::Declare { player, .. } if *player != leader)).cloned().collect();
                    if i >= k && !(fool_last && !rare.0 || !late.is_empty() && !rare.1) {
                        continue;
                    }
                    rare = (rare.0 || fool_last, rare.1 || !late.is_empty());
                    // And the same game with one card played against the rules, so that the
                    // messages of violations are compared too.
                    if let Some((bad, _)) = illegal_variant(rules, &g, &mut rng) {
                        games.push(bad);
                    }
                    // And, where the simulator declared before the first card, the same
                    // declarations made after it, so that when they are made matters.
                    if !late.is_empty() {
                        let mut moved = g.clone();
                        moved.events.retain(|e| !matches!(e, Event::Declare { player, .. } if *player != leader));
                        let at = moved.events.iter().position(|e| matches!(e, Event::Play { .. })).unwrap() + 1;
                        moved.events.splice(at..at, late);
                        games.push(moved);
                    }
                    games.push(g);
                }
            }
            Played { before: verdicts(rules, &games), games }
        })
    }
}

fn verdicts(rules: &Ruleset, games: &[GameRecord]) -> Vec<String> {
    games.iter().map(|g| verdict(rules, g)).collect()
}

fn verdict(rules: &Ruleset, game: &GameRecord) -> String {
    format!("{:?}", replay(rules, game).map(|v| v.to_text()))
}

/// Changes the rule file as `mutation` says, compiles `mutation.ruleset`, and checks `expected`:
/// 0 for a change refused as expected, else how many games were replayed until a verdict changed;
/// what went wrong, if anything.
fn check(construct: &str, mutation: &Mutation, expected: &Expect, games: &Games) -> Result<usize, String> {
    let mut files = Registry::builtin_files();
    let file = files.get_mut(mutation.ruleset).ok_or_else(|| format!("no ruleset {}", mutation.ruleset))?;
    let found = file.text.matches(mutation.find).count();
    if found != 1 {
        return Err(format!("`{construct}`: `{}` occurs {found} times in {}, not once", mutation.find, mutation.ruleset));
    }
    file.text = file.text.replace(mutation.find, &mutation.replace) + &mutation.append;
    let id = mutation.compile_as.unwrap_or(mutation.ruleset);
    let compiled = compile(id, &|id: &str| files.get(id).cloned());
    match (expected, compiled) {
        (Refused(text), Err(d)) => {
            let all = d.to_string();
            if all.contains(text) {
                Ok(0)
            } else {
                Err(format!("`{construct}`: refused, but no diagnostic says `{text}`:\n{all}"))
            }
        }
        (Refused(text), Ok(_)) => Err(format!("`{construct}`: compiled, but should be refused with `{text}`")),
        (Changes | ChangesFollowing, Err(d)) => Err(format!("`{construct}`: should compile and change a verdict, but:\n{d}")),
        (ChangesFollowing, Ok(changed)) => {
            let builtin = games.builtin.get(id).unwrap();
            let played = &games.of(id).games;
            let judged = |rules: &Ruleset| -> Vec<Option<Verdict>> { played.iter().map(|g| replay(rules, g).ok()).collect() };
            let (before, after) = (judged(builtin), judged(&changed));
            // Every game after every other, until one follows under one ruleset and not the other.
            let mut tried = 0;
            for (i, g) in played.iter().enumerate() {
                let (Some(vb), Some(va)) = (&before[i], &after[i]) else { continue };
                for next in played.iter().filter(|n| !std::ptr::eq(*n, g)) {
                    tried += 1;
                    if next_follows(&[(builtin, g, vb)], builtin, next) != next_follows(&[(&changed, g, va)], &changed, next) {
                        return Ok(tried);
                    }
                }
            }
            Err(format!("`{construct}`: compiled, but changes whether any of {tried} pairs of games of {id} follow one another"))
        }
        (Changes, Ok(changed)) => {
            let Played { games: played, before } = games.of(id);
            // The first verdict that differs is enough: the games after it are not replayed.
            match played.iter().zip(before).position(|(g, b)| verdict(&changed, g) != *b) {
                None => Err(format!("`{construct}`: compiled, but changes none of {} verdicts of {id}", before.len())),
                Some(i) => Ok(i + 1),
            }
        }
    }
}

/// The table: a construct (as the reference names it), a change to a rule file, and what it must do.
fn table() -> Vec<(&'static str, Mutation, Expect)> {
    const F: &str = "fft-4p";
    const B: &str = "basic";
    const M: &str = "marolles-1637";
    // Galician Tarok's Trischaken and Suit-Solo (TG42).
    const GI: &str = r#"  instead single trischaken "eldest, having won with a Single" = player == first_hand"#;
    const GL: &str = r#"  last-trump = if contract.name == "trischaken" then T1 else none"#;
    const GT: &str = r#"  trumps-win = contract.name != "suit-solo""#;
    // Troggu's Bättler withheld (P "Play").
    const TW: &str = r#"  withhold EX "the Fool as his only trump""#;
    const TK: &str = r#"  keep EX "the Fool withheld to the last trick" = has(withheld(player), EX)"#;
    const TX: &str = r#"  excuse EX "the Fool withheld takes no trick" = has(withheld(player), EX)"#;
    // Cego's cards kept and shown, which take no trick (P "Normal Games"), and the line of the FFT's
    // play section after which a rule is added.
    const CL: &str = r#"then kept_held(player) else none                                                      @P "Normal Games""#;
    const FO: &str = "  must overtrump                                     @FFT \"Le jeu de la carte\"";
    // Königrufen's forehand raising his "Vorhand" at his last word (HK 3.3).
    const KR: &str = r#"  raise rufer except sechserdreier "forehand, the other three having passed" = player == first_hand"#;
    const KT: &str = r#"rest = if contract.name == "solorufer" and has(packet, called) then "taker" else "defence""#;
    const KB: &str = r#"require "the announcement of a bird he held before the talon" = \"#;
    // A declaration's `allowed`, with or without its reason.
    const AL: &str = r#"allowed ["reason"] = condition"#;
    const LD: &str = r#"ends-match after-deal-by "who" = condition"#;
    vec![
        // 2. Statements: the header.
        (r#"ruleset ID "title""#, m(F, r#"ruleset fft-4p "French Tarot, four players (FFT)""#, r#"ruleset fft-4p "French Tarot" four players"#), Refused("nothing more on that line")),
        (r#"ruleset ID "title""#, m(F, r#"ruleset fft-4p "#, "ruleset fft-4x "), Refused("the file name and the declared id must agree")),
        ("extends PARENT", m("fft-5p", "extends fft-4p", "extends fft-4q"), Refused("there is no ruleset `fft-4q`")),
        ("extends PARENT", m("fft-5p", "extends fft-4p", "extends fft-4p\nextends basic"), Refused("a ruleset extends one parent")),
        ("without KEY...", m("fft-4p-petit-imprenable", "without annul petit_sec\n", ""), Changes),
        ("without KEY...", m("fft-2p", "without annul petit_sec", "without annul petit_secc"), Refused("did you mean `without annul petit_sec`?")),
        ("without KEY...", m("fft-2p", "  without dog_packets\n", "").then_top("without dog_packets"), Refused("write `deal { without dog_packets }`")),
        ("without KEY...", m(F, "players 4\n", "players 4\nwithout players\n"), Refused("only works in a ruleset that `extends` another")),
        // `without` reads its key and nothing else: a block or a value after it would be dropped.
        ("without KEY...", m("fft-2p", "without annul petit_sec", "without annul petit_sec { this is nonsense 123 }"), Refused("`without annul petit_sec` takes no block")),
        ("without KEY...", m("fft-2p", "without annul petit_sec", "without annul petit_sec = 3"), Refused("`without annul petit_sec` takes no value")),
        (r#"source ID "address" ["title"]"#, m(F, r#"source S004 "https://www.queenoftarot.com/tarot-game-rules/tarot-games-for-four-or-more/jeu-de-tarot" "Jeu de Tarot (Queen of Tarot)""#, ""), Refused("unknown source `S004`")),
        (r#"source ID "address" ["title"]"#, m(F, r#""Jeu de Tarot (Queen of Tarot)""#, r#""Jeu de Tarot" "Queen of Tarot""#), Refused("`source` takes at most 3 word(s)")),
        (r#"family "NAME""#, m(M, r#"family "French""#, r#"family "Frankish""#), Refused(r#"a family is one of "French", "Italian""#)),
        (r#"family "NAME""#, m(M, r#"family "French""#, r#"family "French" "Italian""#), Refused("`family` takes at most 1 word(s)")),
        ("dated YEAR", m(M, "dated 1637", "dated 17th"), Refused("the year the source dates the rules from is written out")),
        ("dated YEAR", m(M, "dated 1637", "dated 1637 = yes"), Refused("`dated` takes no value")),
        ("dated YEAR", m("fft-2p", "extends fft-4p\n", "extends fft-4p\nwithout dated\n"), Refused("a child never inherits its parent's `dated`")),
        (r#"option NAME "what it decides" = [default, other, ...]"#, m(F, r#"= [1, 3]"#, r#"= [3, 1]"#), Changes),
        (r#"option NAME "what it decides" = [default, other, ...]"#, m(F, r#"= ["changes-side", "to-winner"]"#, r#"= ["changes-side", "to" + "-winner"]"#), Refused("each choice is a string or a number written out")),
        (r#"option NAME "what it decides" = [default, other, ...]"#, m(F, "players 4\n", "players 4\noption unread \"nothing\" = [\"a\", \"b\"]\n"), Refused("no formula reads `option.unread`")),
        // pack
        (r#"suit S "name" [ranks high to low]"#, m(F, r#"suit S "spades""#, r#"suit S "piques""#), Changes),
        (r#"suit S "name" [ranks high to low]"#, m(F, r#"suit S "spades""#, r#"suit S "spades" K Q C J 10 9 8 7 6 5 4 3 2"#), Changes),
        (r#"suit S "name" [ranks high to low]"#, m(F, r#"suit H "hearts""#, r#"suit S "hearts""#), Refused("is written twice")),
        ("ranks K Q C J 10 ... 1", m(F, "ranks K Q C J 10 9 8 7 6 5 4 3 2 1", "ranks 1 2 3 4 5 6 7 8 9 10 J C Q K"), Changes),
        (r#"rank-name CODE "name" ..."#, m(F, r#"  fool "the Excuse""#, "  fool \"the Excuse\"\n  rank-name K \"roi\" Q \"dame\" C \"cavalier\" J \"valet\""), Changes),
        (r#"rank-name CODE "name" ..."#, m(B, r#"rank-name C "knight""#, r#"rank-name C "knight" K"#), Refused("`rank-name` takes pairs")),
        (r#"rank-name CODE "name" ..."#, m(B, r#"rank-name C "knight""#, r#"rank-name C "knight" C "rider""#), Refused("rank `C` is named twice")),
        ("extends PARENT", m("fft-5p", "extends fft-4p", "extends fft-4p @FFT"), Refused("a citation on it would go nowhere")),
        ("reversed SUITS = condition", m(B, r#"reversed H D = option.round_suits_reversed == "yes""#, r#"reversed H D = option.round_suits_reversed == "no""#), Changes),
        ("reversed SUITS = condition", m(B, r#"reversed H D = "#, "reversed H X = "), Refused("`X` is not a suit")),
        ("empty 0", m(F, "  counter 2 = rank(J)", "  counter 2 = rank(J)\n  empty 0"), Refused("it needs `group 1`")),
        ("empty 0", m(F, "  counter 2 = rank(J)", "  counter 2 = rank(J)\n  empty 1"), Refused("`empty 0` makes the cards no counter lists worth nothing")),
        ("empty 0", m(F, "group 2", "group 1\n  empty 0"), Changes),
        ("trumps N", m(B, "trumps 21", "trumps 22"), Changes),
        ("trumps N", m(F, "trumps 21", "trumps 20"), Refused("cards not in this ruleset's pack: T21")),
        ("trumps N", m(F, "trumps 21", "trumps 41"), Refused("N a number from 1 to 40")),
        ("trumps N", m(F, "  trumps 21", "  trumps 21 = yes"), Refused("`trumps` takes no value")),
        (r#"fool ["name"] [trump]"#, m(F, r#"fool "the Excuse""#, r#"fool "l'Excuse""#).in_child("queen-of-tarot"), Changes),
        // The Fool made a trump leaves no Excuse for the `fool { ... }` rules: a child drops them.
        (r#"fool ["name"] [trump]"#, m("fft-3p", "extends fft-4p;", "extends fft-4p\nwithout fool\n").then_top("pack {\n  fool \"the Excuse\" trump\n}"), Changes),
        (r#"fool ["name"] [trump]"#, m(F, r#"fool "the Excuse""#, r#"fool "the Excuse" trump"#), Refused("the `fool { ... }` rules are the Excuse's, and the Excuse is a trump")),
        (r#"fool ["name"] [trump]"#, m(F, "  fool \"the Excuse\"                                  @FFT \"Les cartes\"\n", ""), Refused("the pack has no Fool: they would never apply")),
        (r#"fool ["name"] [trump]"#, m(F, r#"fool "the Excuse""#, r#"fool "the Excuse" "l'Excuse""#), Refused("the Fool has one name")),
        (r#"fool "name" trump = condition"#, m(F, r#"fool "the Excuse""#, r#"fool "the Excuse" trump = option.skus == "trump""#).then_top(r#"option skus "s" = ["trump", "excuse"]"#), Changes),
        (r#"fool "name" trump = condition"#, m(F, r#"fool "the Excuse""#, r#"fool "the Excuse" trump = count(players) == 4"#), Refused("reads no option")),
        // Two options of 65 choices read together: 4,225 choices, more than can all be tried (its own
        // copy of the enumeration once tried the first 4096 and accepted the rest unchecked).
        (
            r#"fool "name" trump = condition"#,
            m(F, r#"fool "the Excuse""#, r#"fool "the Excuse" trump = option.a + option.b == 2"#)
                .then_top(&format!("option a \"a\" = [{}]", (1..=65).map(|n| n.to_string()).collect::<Vec<_>>().join(", ")))
                .then_top(&format!("option b \"b\" = [{}]", (1..=65).map(|n| n.to_string()).collect::<Vec<_>>().join(", "))),
            Refused("follows options with 4225 choices together, more than the 4096 that can all be checked"),
        ),
        (r#"fool "name" trump = condition"#, m(F, r#"fool "the Excuse""#, r#"fool "the Excuse" = option.skus == "trump""#).then_top(r#"option skus "s" = ["trump", "excuse"]"#), Refused("the word `trump` is missing")),
        (r#"fool ["name"] [trump]"#, m(F, r#"fool "the Excuse""#, r#"fool "the Excuse" trumps"#), Refused("not `trumps`")),
        (r#"fool ["name"] [trump]"#, m(F, "trumps 21                                          @FFT \"Les cartes\"\n  fool \"the Excuse\"", "trumps 40\n  fool \"the Excuse\" trump"), Refused("needs `trumps N` with N from 1 to 39")),
        // A built-in pack with a trump suit changes every card's name and the trumps' count at once,
        // so its rows are refusals; `tests/it/pack.rs` plays one (a 36-card German-suited pack).
        (r#"trump-suit S "name" RANKS"#, m(F, "  trumps 21", "  trumps 21\n  trump-suit H \"hearts\" K Q C J"), Refused("the pack gives no `trumps N` beside it")),
        (r#"trump-suit S "name" RANKS"#, m(F, "  fool \"the Excuse\"", "  fool \"the Excuse\"\n  trump-suit X \"hearts\" K Q"), Refused("names the suit whose cards are the trumps")),
        ("trump-order CARDS", m(F, "  trumps 21", "  trumps 21\n  trump-order T20 T21 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T9 T8 T7 T6 T5 T4 T3 T2 T1"), Changes),
        ("trump-order CARDS", m(F, "  trumps 21", "  trumps 21\n  trump-order T21 T20 T19"), Refused("it leaves out T1, T2,")),
        ("trump-order CARDS", m(F, "  trumps 21", "  trumps 21\n  trump-order T21 T21 T22"), Refused("`T21` is listed twice")),
        ("trump-order CARDS = condition", m("scarto", "= option.trump_order == \"angel-high\"", "= option.trump_order == \"world-high\""), Changes),
        ("trump-order CARDS = condition", m("scarto", "T3 T2 T1 \\\n      = option.trump_order", "T3 T2 \\\n      = option.trump_order"), Refused("it leaves out il Bagatto")),
        ("trump-order CARDS = condition", m("scarto", "  fool \"il Matto\"", "  tie T19 T18 \"later-wins\"\n  fool \"il Matto\""), Refused("a `trump-order` that follows an option and a `tie` together")),
        (r#"trump-name T20 "name" ..."#, m(F, "  trumps 21", "  trumps 21\n  trump-name T21 \"the World\" T1 \"the Juggler\""), Changes),
        (r#"trump-name T20 "name" ..."#, m(F, "  trumps 21", "  trumps 21\n  trump-name T22 \"the Sküs\""), Refused("`trump-name` takes pairs of a trump of the pack")),
        (r#"tie TRUMPS "later-wins""#, m(F, "  trumps 21", "  trumps 21\n  tie T19 T20 T21 \"first-wins\""), Changes),
        (r#"tie TRUMPS "later-wins""#, m(F, "  trumps 21", "  trumps 21\n  tie T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17 T18 T19 T20 T21 \"later-wins\""), Changes),
        (r#"tie TRUMPS "later-wins""#, m(F, "  trumps 21", "  trumps 21\n  tie T19 T21 \"later-wins\""), Refused("next to each other")),
        (r#"tie TRUMPS "later-wins""#, m(F, "  trumps 21", "  trumps 21\n  tie T19 T20 T21 \"last-wins\""), Refused("`\"first-wins\"`")),
        ("code CODE CARD ...", m(F, "  trumps 21", "  trumps 21\n  code KS T21"), Refused("`KS` is already the code of KS")),
        ("code CODE CARD ...", m(F, "  trumps 21", "  trumps 21\n  code MOND T22"), Refused("`T22` is not a card of this pack")),
        // class, let
        (r#"class NAME ["label"] = cards"#, m(F, r#"class oudlers "oudler" = T1 + T21 + EX"#, r#"class oudlers "oudler" = T1 + T21"#), Changes),
        (r#"class NAME ["label"] = cards"#, m(F, "class kings = rank(K)", "class kings = rank(K) + option.petit_sec"), Refused("a card class is fixed when the rules are compiled")),
        ("let NAME = formula", m(F, "let poignee_values = [20, 30, 40]", "let poignee_values = [21, 31, 41]"), Changes),
        ("let NAME = formula", m(F, "let poignee_values = [20, 30, 40]", "let poignee_values = [20, 30, 40][7]"), Refused("cannot be evaluated, whatever the game")),
        ("let NAME = formula", m(F, "players 4\n", "players 4\nlet unread = 3\n"), Refused("no formula reads `unread`")),
        ("let NAME PARAM... = formula", m("tarocchini", "+ sequences_points(cards)                         @MP", "+ sequences_points(cards) + 1                     @MP"), Changes),
        ("let NAME PARAM... = formula", m("tarocchini", "  value = combinations(shown)                                       @AO", "  value = combinations(shown, hand)                                 @AO"), Refused("`combinations` takes 1 argument(s)")),
        ("let NAME PARAM... = formula", m("tarocchini", "let combinations cards = cricche_points(cards)", "let combinations cards = combinations(cards)"), Refused("`combinations` calls itself")),
        // counting
        ("group N", m(F, "group 2", "group 1"), Changes),
        ("group N", m(F, "group 2", "group 7"), Refused("groups of N (1 to 6)")),
        ("group = if option...", m(F, "group 2", "group = if option.petit_sec == \"fft\" then 3 else 2"), Changes),
        ("group = if option...", m(F, "group 2", "group = if option.petit_sec == \"fft\" then 2 else 9"), Refused("must give a whole number of cards from 1 to 6")),
        ("group = if option...", m(F, "group 2", "group = 2 + 1"), Refused("reads none: write `group N`")),
        ("counter V = cards", m(F, "counter 4 = rank(Q)", "counter 6 = rank(Q)"), Changes),
        ("counter V = cards", m(F, "counter 4 = rank(Q)", "counter option.x = rank(Q)"), Refused("is not a whole number of points")),
        ("counter V = cards", m(F, "counter 4 = rank(Q)", "counter 0 = rank(Q)"), Refused("are already empty")),
        ("counter V = if option...", m(F, "counter 4 = rank(Q)", "counter 4 = if option.petit_sec == \"fft\" then rank(Q) - QS else rank(Q)"), Changes),
        ("counter V = if option...", m(F, "counter 4 = rank(Q)", "counter 4 = if option.petit_sec == \"fft\" then rank(Q) else rank(Q) + KS"), Refused("with option.petit_sec = \"seed-004\": KS already has a value")),
        ("counter V = if option...", m(F, "counter 4 = rank(Q)", "counter 4 = if count(players) == 4 then rank(Q) else none"), Refused("this must be a set of cards")),
        ("surplus exact | nearest | packets", m(F, "surplus exact", "surplus nearest"), Changes),
        ("surplus exact | nearest | packets", m(F, "surplus exact", "surplus exactly"), Refused("`surplus` is `exact`")),
        ("short-packet over-half | sum-less-one", m("troccas", "short-packet sum-less-one", "short-packet over-half"), Changes),
        ("short-packet over-half | sum-less-one", m("troccas", "short-packet sum-less-one", "short-packet sum"), Refused("`short-packet` is `over-half`")),
        ("short-packet over-half | sum-less-one", m(F, "surplus exact", "surplus exact\n  short-packet sum-less-one"), Refused("without `surplus packets` there are no packets")),
        // who deals next, read across a table's deals (tests/it/next_dealer.rs)
        ("next_dealer = WHO", m(F, r#"next_dealer = "first-hand""#, r#"next_dealer = "dealer""#), ChangesFollowing),
        ("next_dealer = WHO", m("droggn", r#"next_dealer = "taker""#, r#"next_dealer = "first-hand""#), ChangesFollowing),
        ("next_dealer = WHO", m(F, r#"next_dealer = "first-hand""#, r#"next_dealer = "loser""#), Refused(r#"`next_dealer` is one of "first-hand", "dealer", "taker", not "loser""#)),
        ("next_dealer = WHO", m(F, r#"next_dealer = "first-hand""#, "next_dealer = first_hand"), Refused("`first_hand` is not known before the deal")),
        ("next_dealer = WHO", m(F, r#"next_dealer = "first-hand""#, r#"next_dealer "first-hand""#), Refused("`next_dealer` needs a value")),
        ("next_dealer = WHO", m(B, "  dealer = 78 - (count(players) - 1)", "  next_dealer = \"taker\"\n  dealer = 78 - (count(players) - 1)"), Refused("the taker deals next, so the ruleset needs `bidding`")),
        ("next_dealer_annulled = WHO", m("fft-5p-mort", r#"next_dealer_annulled = "dealer""#, r#"next_dealer_annulled = "first-hand""#), ChangesFollowing),
        ("next_dealer_annulled = WHO", m("droggn", r#"next_dealer_annulled = "dealer""#, r#"next_dealer_annulled = "taker""#), Refused("an annulled deal has no taker")),
        (
            "next_dealer_annulled = WHO",
            m("dreierles", r#"next_dealer = "first-hand""#, "next_dealer = \"first-hand\"\n  next_dealer_annulled = \"dealer\""),
            Refused("this ruleset annuls none (no `annul`, no `all-pass annul`, no declaration `ends-deal annul`): it would never apply"),
        ),
        // match (its effect, over a table's deals, is tested in tests/it/matches.rs)
        ("deals = N", m(F, "players 4\n", "players 4\nmatch {\n  deals = 0\n}\n"), Refused("`deals` is a whole number of deals, 1 or more")),
        ("deals = N", m(F, "players 4\n", "players 4\nmatch {\n  deals = 5 / 2\n}\n"), Refused("`deals` is a whole number of deals, 1 or more")),
        ("target = N", m(F, "players 4\n", "players 4\nmatch {\n  target = points(taker)\n}\n"), Refused("`points` looks at the game being played")),
        ("target = N", m(F, "players 4\n", "players 4\nmatch {\n  rounds = 3\n}\n"), Refused("expected deals or target")),
        // players, sides, sit-out
        ("players", m(F, "players 4\n", "players 5\n"), Changes),
        ("players", m(F, "players 4\n", "players 4 5\n"), Refused("`players` takes at most 1 word(s)")),
        ("sides", m(B, "sides each", "sides partners"), Changes),
        ("sides", m("basic-partners", "sides partners", "sides each"), Changes),
        ("sides", m(F, "sides taker", "sides each"), Refused("bidding chooses a taker, so it needs `sides taker`")),
        ("sit-out dealer", m("fft-5p-mort", "sit-out dealer", "sit-out first_hand"), Refused("`sit-out dealer` is the only form")),
        ("sit-out dealer", m("fft-5p-mort", "sit-out dealer", "sit-out dealer = no"), Refused("`sit-out` takes no value")),
        ("sit-out dealer", m("droggn", "sit-out dealer from 4", "sit-out dealer"), Changes),
        ("sit-out dealer", m("droggn", "sit-out dealer from 4", "sit-out dealer from 5"), Refused("a whole number from 3 to the largest table (4)")),
        ("sit-out opposite", m("grosstarock", "sit-out opposite from 4", "sit-out dealer from 4"), Changes),
        ("sit-out opposite", m("grosstarock", "sit-out opposite from 4", "sit-out opposite from 3"), Refused("must be the largest table and even")),
        ("sit-out opposite", m("droggn", "sit-out dealer from 4", "sit-out opposite"), Refused("`sit-out opposite from N`")),
        ("sit-out ... scores-as defence", m("dreierles", "sit-out dealer from 4 scores-as defence", "sit-out dealer from 4"), Changes),
        ("sit-out ... scores-as defence", m("droggn", "sit-out dealer from 4 ", "sit-out dealer from 4 scores-as defence "), Changes),
        ("sit-out ... scores-as defence", m("droggn", "sit-out dealer from 4 ", "sit-out dealer from 4 scores-as attack "), Refused("`scores-as defence` ends the statement")),
        ("sit-out ... scores-as defence", m("droggn", "sit-out dealer from 4 ", "sit-out dealer scores-as defence from 4 "), Refused("`scores-as defence` ends the statement")),
        ("sit-out ... scores-as defence", m("grosstarock", "sit-out opposite from 4", "sit-out opposite from 4 scores-as defence"), Refused("so the ruleset needs `sides taker`")),
        // deal
        ("hand = N", m(F, "hand = 18", "hand = 17"), Changes),
        ("hand = N", m(F, "hand = 18", "hand = 18\n  hand = 17"), Refused("`hand` is written twice")),
        ("dealer = N", m(B, "  dealer = 78 - (count(players) - 1)", "  dealer = 77 - (count(players) - 1)"), Changes),
        ("dog = N", m(F, "dog = 6", "dog = 5"), Changes),
        ("cut", m(M, "  cut                                                 @M", "  #"), Changes),
        ("cut", m(M, "  cut                                                 @M", "  cut = no @M"), Refused("`cut` is a switch and takes no value")),
        ("piles = N", m("fft-2p", "piles = 6", "piles = 5"), Changes),
        ("piles = N", m("fft-2p", "  pile_size = 3", "  #"), Refused("`piles` (how many before each player) and `pile_size` (cards in each) go together")),
        ("packets = N", m(F, "packets = 3", "packets = 6"), Changes),
        ("packets = [[N, ...], [N, ...], ...]", m(F, "packets = 3", "packets = [[6, 6, 6], [9, 9]]"), Changes),
        ("packets = [[N, ...], [N, ...], ...]", m(F, "packets = 3", "packets = [[3, 3, 3, 3, 3, 3]]"), Refused("one order to choose from leaves the dealer no choice")),
        ("packets = [[N, ...], [N, ...], ...]", m(F, "packets = 3", "packets = [[6, 6, 6], 9]"), Refused("holds only orders, each a list of packets")),
        ("dealer_packets = ...", m(M, "[5, 5, 5, 5, 4] else", "[4, 5, 5, 5, 5] else"), Changes),
        ("dog_packets = N", m(F, "dog_packets = 1", "dog_packets = 2"), Changes),
        ("dog_after = R", m(F, "  dog_apart = option.dog_apart ", "  dog_after = 2\n  dog_apart = option.dog_apart "), Changes),
        ("dog_after = R", m(B, "  dealer = 78 - (count(players) - 1)", "  dog_after = 1\n  dealer = 78 - (count(players) - 1)"), Refused("`dog_after` (after how many rounds of packets the dog is dealt) needs `packets`")),
        ("dog_apart = N", m(F, "dog_apart = option.dog_apart", "dog_apart = option.dog_apart + 2"), Changes),
        (r#"dog_name = "WORD""#, m("koenigrufen", r#"dog_name = "talon""#, r#"dog_name = "Talon""#), Changes),
        (r#"dog_name = "WORD""#, m("koenigrufen", r#"dog_name = "talon""#, "dog_name = 3"), Refused("`dog_name` is the game's word for the dog, in quotes")),
        (r#"dog_name = "WORD""#, m(B, "  dealer = 78 - (count(players) - 1)", "  dog_name = \"kitty\"\n  dealer = 78 - (count(players) - 1)"), Refused("`dog_name` names the dog, and this deal has none")),
        // untouchable, annul
        ("untouchable", m("fft-4p-petit-imprenable", "= count(hand, trumps) == 1 and", "= count(hand, trumps) <= 3 and"), Changes),
        ("untouchable", m("fft-4p-petit-imprenable", "untouchable T1", "untouchable T99"), Refused("`T99` is not a card")),
        ("annul", m(F, "count(hand, trumps) == 1 and (option.petit_sec", "count(hand, trumps) <= 3 and (option.petit_sec"), Changes),
        ("annul", m(F, "annul petit_sec \"petit sec: the Petit is the only trump\" \\", "annul petit_sec \"petit sec\" \"the Petit is the only trump\" \\"), Refused("`annul` takes at most 2 word(s)")),
        // bidding
        ("turns once", m(F, "turns once", "turns until-one-left"), Changes),
        ("turns until-one-left", m("fft-4p-pousse", "turns until-one-left", "turns once"), Changes),
        ("turns once", m(F, "turns once", "turns twice"), Refused("`turns once` (each player speaks once)")),
        ("turns rounds", m(F, "turns once", "turns rounds"), Changes),
        ("turns rounds", m("fft-4p-pousse", "turns until-one-left", "turns rounds"), Changes),
        ("hold forehand", m("fft-4p-pousse", "turns until-one-left", "turns until-one-left\n  hold forehand"), Changes),
        ("hold seniority", m("fft-4p-pousse", "turns until-one-left", "turns until-one-left\n  hold seniority"), Changes),
        ("hold = if option...", m("galician-tarok", r#"hold = if option.priority == "seniority" then "seniority" else "forehand""#, r#"hold = if option.priority == "seniority" then "forehand" else "seniority""#), Changes),
        ("hold = if option...", m("galician-tarok", r#"hold = if option.priority == "seniority" then "seniority" else "forehand""#, r#"hold = if option.priority == "seniority" then "dealer" else "forehand""#), Refused(r#"must give "forehand" or "seniority", not "dealer""#)),
        ("first-turn CONTRACT ...", m("galician-tarok", "  first-turn suit-solo solo solo-slam", "  # first-turn suit-solo solo solo-slam"), Changes),
        ("first-turn CONTRACT ...", m("galician-tarok", "  first-turn suit-solo solo solo-slam", "  first-turn solo sollo"), Refused("there is no contract `sollo`")),
        ("first-turn CONTRACT ...", m(F, "turns once", "turns once\n  first-turn garde"), Refused("`first-turn` needs a bidding in which players speak again")),
        ("step CONTRACT CONTRACT ...", m("galician-tarok", "  step single double triple", "  # step single double triple"), Changes),
        ("step CONTRACT CONTRACT ...", m("galician-tarok", "  step single double triple", "  step double single"), Refused("lowest first")),
        ("step lowest CONTRACT CONTRACT ...", m("cego-pagat", "  step lowest cego", "  step cego"), Changes),
        ("step lowest CONTRACT CONTRACT ...", m("fft-4p-pousse", "turns until-one-left", "turns until-one-left\n  step lowest prise garde"), Refused("`step lowest` binds a player who may hold")),
        ("opening-round CONTRACT ...", m("cego-pagat", "  opening-round solo ulti", "  # opening-round solo ulti"), Changes),
        ("opening-round CONTRACT ...", m("cego-pagat", "  opening-round solo ulti", "  opening-round solo ulti eine"), Refused("`opening-round` and `step` both name eine")),
        ("opening-round CONTRACT ...", m("cego-pagat", "  opening-round solo ulti", "  opening-round solo ulti rauber"), Refused("which nobody bids")),
        ("opening-round CONTRACT ...", m(F, "turns once", "turns once\n  opening-round prise"), Refused("`opening-round` needs an auction after it")),
        ("opening-bidder out", m("cego-ministranten", "  opening-bidder out", "  # opening-bidder out"), Changes),
        ("opening-bidder out", m("cego-pagat", "  opening-round solo ulti", "  opening-round solo ulti\n  opening-bidder out"), Changes),
        ("opening-bidder out", m("cego-pagat", "  opening-round solo ulti", "  opening-round solo ulti\n  opening-bidder in"), Refused("are the only forms")),
        ("opening-bidder out from first-hand", m("cego-ministranten", "  opening-bidder out", "  opening-bidder out from first-hand"), Changes),
        ("opening-bidder out from first-hand", m("cego-braeunlingen", "  opening-bidder out from first-hand", "  opening-bidder out"), Changes),
        ("opening-bidder out from first-hand", m("cego-braeunlingen", "  opening-bidder out from first-hand", "  opening-bidder out from dealer"), Refused("are the only forms")),
        ("opening-bidder out", m(F, "turns once", "turns once\n  opening-bidder out"), Refused("`opening-bidder out` needs an opening round")),
        ("opening-bidder out = condition", m("cego-oberwolfach", "  opening-bidder out ", "  opening-bidder out = option.geiss_frei == \"no\" "), Changes),
        ("opening-bidder out = condition", m("cego-oberwolfach", "  opening-bidder out ", "  opening-bidder out = yes "), Refused("reads none")),
        ("opening-bidder out = condition", m("cego-oberwolfach", "  opening-bidder out ", "  opening-bidder out = count(hand, pips) > 3 "), Refused("is not known before the deal")),
        ("closing CONTRACT ...", m("cego-pagat", "  closing ulti piccolo bettel", "  closing ulti piccolo bettel eine"), Changes),
        ("closing CONTRACT ...", m("cego-pagat", "  closing ulti piccolo bettel", "  closing ulti piccolo bettel rauber"), Refused("which nobody bids")),
        ("out-of-turn CONTRACT ...", m("cego-pagat", "  out-of-turn piccolo bettel", "  # out-of-turn piccolo bettel"), Changes),
        ("out-of-turn CONTRACT ...", m("cego-pagat", "  out-of-turn piccolo bettel", "  out-of-turn piccolo eine"), Refused("which is not `closing`")),
        (r#"instead WON CHOSEN "label" = condition"#, m("galician-tarok", GI, "  # instead"), Changes),
        (r#"instead WON CHOSEN "label" = condition"#, m("galician-tarok", GI, "  instead single trischaken \"eldest\" = player == dealer"), Changes),
        (r#"instead WON CHOSEN "label" = condition"#, m("galician-tarok", GI, "  instead single double \"eldest\" = player == first_hand"), Refused("its dog must be `dog = \"defence\"`")),
        (r#"instead WON CHOSEN "label" = condition"#, m("galician-tarok", GI, "  instead single single \"eldest\" = player == first_hand"), Refused("names the same contract twice")),
        (r#"instead WON CHOSEN "label" = condition"#, m("cego-ministranten", "  instead cego dresch \"Vorhand, all having passed his Cego\" = player == first_hand", "  instead cego dresch \"Vorhand, all having passed his Cego\" = player == dealer"), Changes),
        (r#"instead WON CHOSEN "label" = condition"#, m("galician-tarok", GI, "  instead single trischak \"eldest\" = player == first_hand"), Refused("there is no contract `trischak`")),
        (r#"instead WON CHOSEN "label" = condition"#, m("galician-tarok", GI, "  instead single trischaken \"eldest\" = count(tricks) > 0"), Refused("`tricks` is not known")),
        (r#"instead WON CHOSEN "label" = condition"#, m("galician-tarok", GI, "  instead single trischaken"), Refused("`instead` needs a value")),
        (r#"raise WON "label" = condition"#, m("koenigrufen", KR, "  # raise"), Changes),
        (r#"raise WON "label" = condition"#, m("koenigrufen", KR, "  raise rufer to solodreier \"forehand\" = player == first_hand"), Changes),
        (r#"raise WON "label" = condition"#, m("koenigrufen", KR, "  raise rufer except sechserdreier dreier \"forehand\" = player == first_hand"), Changes),
        (r#"raise WON "label" = condition"#, m("koenigrufen", KR, "  raise rufer except sechserdreier \"forehand\" = player != first_hand"), Changes),
        (r#"raise WON "label" = condition"#, m("koenigrufen", KR, "  raise rufer except sechsdreier \"forehand\" = player == first_hand"), Refused("there is no contract `sechsdreier`")),
        (r#"raise WON "label" = condition"#, m("koenigrufen", KR, "  raise dreier to farbendreier \"forehand\" = player == first_hand"), Refused("farbendreier is not above dreier")),
        (r#"raise WON "label" = condition"#, m("koenigrufen", KR, "  raise rufer to trischaken \"forehand\" = player == first_hand"), Refused("trischaken is played with no taker")),
        (r#"raise WON "label" = condition"#, m("koenigrufen", KR, "  raise rufer above dreier \"forehand\" = player == first_hand"), Refused("after the contract won comes `except CONTRACT ...`")),
        (r#"raise WON "label" = condition"#, m("koenigrufen", KR, "  raise solodreier \"forehand\" = player == first_hand"), Refused("leaves no contract to raise to")),
        (r#"raise WON "label" = condition"#, m("koenigrufen", KR, "  raise rufer except sechserdreier \"forehand\" = count(tricks) > 0"), Refused("`tricks` is not known")),
        (r#"raise WON "label" = condition"#, m("koenigrufen", KR, "  raise rufer except sechserdreier \"forehand\""), Refused("`raise` needs a value")),
        ("hold forehand", m(F, "turns once", "turns once\n  hold forehand"), Refused("`hold` needs a bidding in which players speak again")),
        ("hold forehand", m("fft-4p-pousse", "turns until-one-left", "turns until-one-left\n  hold dealer"), Refused("`hold forehand` is the only form")),
        ("no-reraise", m("fft-4p-pousse", "turns until-one-left", "turns until-one-left\n  no-reraise"), Changes),
        ("no-reraise", m(F, "turns once", "turns once\n  no-reraise"), Refused("`no-reraise` needs a bidding in which players speak again")),
        ("no-reraise", m("fft-4p-pousse", "turns until-one-left", "turns until-one-left\n  no-reraise = yes"), Refused("`no-reraise` is a switch")),
        (r#"must-bid CONTRACT "label" = condition"#, m(F, "turns once", "turns once\n  must-bid garde \"the 21\" = has(hand, T21)"), Changes),
        (r#"must-bid CONTRACT "label" = condition"#, m(F, "turns once", "turns once\n  must-bid prise \"first hand, who must open\" = player == first_hand"), Changes),
        (r#"must-bid CONTRACT "label" = condition"#, m(F, "turns once", "turns once\n  must-bid gard \"the 21\" = has(hand, T21)"), Refused("there is no contract `gard`")),
        (r#"must-bid CONTRACT "label" = condition"#, m(F, "turns once", "turns once\n  must-bid garde \"the 21\" = has(hand, T21) and count(tricks) > 0"), Refused("`tricks` is not known")),
        (r#"reserve NAME "label" = LIST"#, m("fft-4p-parole", r#"then ["prise", "garde", "garde-sans", "garde-contre"]"#, r#"then ["prise"]"#), Changes),
        (r#"reserve NAME "label" = LIST"#, m("fft-4p-parole", "reserve parole \"parole\" =", "reserve parole \"parole\" \"a word\" ="), Refused("`reserve` takes at most 2 word(s)")),
        (r#"contract NAME "label" { attr = value; ... }"#, m(F, r#"{ multiplier = 2; dog = "taker" }"#, r#"{ multiplier = 3; dog = "taker" }"#), Changes),
        (r#"contract NAME "label" { attr = value; ... }"#, m(F, r#"{ multiplier = 2; dog = "taker" }"#, r#"{ multiplier = 2; multipler = 3; dog = "taker" }"#), Refused("no formula reads this contract's `multipler`")),
        (r#"contract NAME "label" { attr = value; ... }"#, m(F, r#"{ multiplier = 2; dog = "taker" }"#, r#"{ multiplier = 2; dog = "defense" }"#), Refused("a contract's `dog` is")),
        (r#"by "who" = condition"#, m(F, r#"{ multiplier = 6; dog = "defence" }"#, r#"{ multiplier = 6; dog = "defence"; by "forehand" = player == first_hand }"#), Changes),
        (r#"by "who" = condition"#, m(F, r#"{ multiplier = 6; dog = "defence" }"#, r#"{ multiplier = 6; dog = "defence"; by "forehand" = count(tricks) > 0 }"#), Refused("`tricks` is not known")),
        (r#"by "who" = condition"#, m(F, r#"{ multiplier = 6; dog = "defence" }"#, r#"{ multiplier = 6; dog = "defence"; by "forehand" = 3 }"#), Refused("`by` takes a condition")),
        (r#"by "who" = condition"#, m(F, r#"{ multiplier = 6; dog = "defence" }"#, r#"{ multiplier = 6; dog = "defence"; by "forehand" "first" = player == first_hand }"#), Refused("`by` takes at most 1 word(s)")),
        (r#"by "who" = condition"#, m(F, r#"{ multiplier = 6; dog = "defence" }"#, r#"{ multiplier = 6; dog = "defence"; by "a" = player == first_hand; by "b" = player == dealer }"#), Refused("says `by` twice")),
        (r#"by "who" = condition"#, m(F, "* contract.multiplier          @FFT", "* contract.by          @FFT"), Refused("no contract has an attribute `by`")),
        ("settle = amount", m(F, r#"{ multiplier = 6; dog = "defence" }"#, r#"{ multiplier = 6; dog = "defence"; settle = 3 }"#), Changes),
        ("settle = amount", m(F, r#"{ multiplier = 6; dog = "defence" }"#, r#"{ multiplier = 6; dog = "defence"; settle = count(tricks) }"#), Refused("`tricks` is not known")),
        ("settle = amount", m(F, r#"{ multiplier = 6; dog = "defence" }"#, r#"{ multiplier = 6; dog = "defence"; settle = "half" }"#), Refused("`settle` is the amount each opponent pays the taker")),
        ("settle = amount", m(F, r#"{ multiplier = 6; dog = "defence" }"#, r#"{ multiplier = 6; dog = "defence"; settle }"#), Refused("`settle` needs a value")),
        ("settle = amount", m(F, "* contract.multiplier          @FFT", "* contract.settle          @FFT"), Refused("no contract has an attribute `settle`")),
        (
            "settle = amount",
            m(F, "  all-pass annul ", "  contract raeuber \"Räuber\" { dog = \"defence\"; settle = 1 }\n  all-pass play raeuber "),
            Refused("it cannot be settled unplayed"),
        ),
        (r#"contract NAME { require "label" = condition }"#, m("koenigrufen", KB, r#"require "the announcement of a bird he held before the talon" = yes or \"#), Changes),
        (r#"contract NAME { require "label" = condition }"#, m(F, r#"{ multiplier = 6; dog = "defence" }"#, r#"{ multiplier = 6; dog = "defence"; require "the chelem announced" = announced(chelem) }"#), Changes),
        (r#"contract NAME { require "label" = condition }"#, m(F, r#"{ multiplier = 6; dog = "defence" }"#, r#"{ multiplier = 6; dog = "defence"; require "a trick" = count(tricks) > 0 }"#), Refused("`tricks` is not known")),
        (r#"contract NAME { require "label" = condition }"#, m(F, r#"{ multiplier = 6; dog = "defence" }"#, r#"{ multiplier = 6; dog = "defence"; require "three" = 3 }"#), Refused("`require` takes a condition")),
        (r#"contract NAME { require "label" = condition }"#, m(F, r#"{ multiplier = 6; dog = "defence" }"#, r#"{ multiplier = 6; dog = "defence"; require = yes }"#), Refused("`require \"label\" = condition on the game once the announcements are closed`")),
        (r#"contract NAME { require "label" = condition }"#, m(F, r#"{ multiplier = 6; dog = "defence" }"#, r#"{ multiplier = 6; dog = "defence"; settle = 3; require "the chelem" = announced(chelem) }"#), Refused("would never be")),
        (r#"contract NAME { require "label" = condition }"#, m(F, "* contract.multiplier          @FFT", "* contract.require          @FFT"), Refused("no contract has an attribute `require`")),
        (
            r#"contract NAME { require "label" = condition }"#,
            m("koenigrufen", r#"value = 1; talon = 1; call = 0; solo = 0; prem = 0; colour = 0; neg = 1; dog = "defence" }   @HK "7.6""#, r#"value = 1; talon = 1; call = 0; solo = 0; prem = 0; colour = 0; neg = 1; dog = "defence"; require "a pagat" = announced(pagat) }   @HK "7.6""#),
            Refused("its `require` would ask nobody"),
        ),
        ("all-pass [annul]", m(F, "  all-pass annul                                     @FFT \"Les enchères\"\n", ""), Changes),
        ("all-pass [annul]", m(F, "all-pass annul", "all-pass redeal"), Refused("the only word it takes is `annul`")),
        (
            "all-pass play CONTRACT",
            m(F, "  all-pass annul ", "  contract raeuber \"Räuber\" { dog = \"defence\" }\n  all-pass play raeuber "),
            Changes,
        ),
        ("all-pass play CONTRACT", m(F, "all-pass annul", "all-pass play garde"), Refused("its dog must be `dog = \"defence\"`")),
        ("all-pass play CONTRACT", m(F, "all-pass annul", "all-pass play raeuber"), Refused("there is no contract `raeuber`")),
        ("all-pass play CONTRACT", m(F, "all-pass annul", "all-pass play"), Refused("the only word it takes is `annul`")),
        (r#"all-pass play CONTRACT by "who" = condition"#, m(F, "  all-pass annul ", "  all-pass play garde by \"the holder of the 21\" = has(hand, T21)\n  all-pass annul "), Changes),
        (r#"all-pass play CONTRACT by "who" = condition"#, m(F, "  all-pass annul ", "  all-pass play prise by \"forehand\" = player == first_hand\n  all-pass annul "), Changes),
        (r#"all-pass play CONTRACT by "who" = condition"#, m(F, "all-pass annul", "all-pass play raeuber by \"the holder of the 21\" = has(hand, T21)"), Refused("there is no contract `raeuber`")),
        // Dobbm's Stockerl: paid by each other player to the new dealer of a deal thrown in at five.
        (r#"all-pass pay PAYERS to PAYEES ["label"] = amount"#, m("dobbm", "then ceil(10 * option.stake / 60) else 0", "then 5 else 0"), Changes),
        (r#"all-pass pay PAYERS to PAYEES ["label"] = amount"#, m("dobbm", "all-pass pay players to first_hand", "all-pass pay first_hand to players"), Changes),
        (r#"all-pass pay PAYERS to PAYEES ["label"] = amount"#, m("dobbm", "then ceil(10 * option.stake / 60) else 0", "then contract.factor else 0"), Refused("`contract.factor` is not known")),
        (r#"all-pass pay PAYERS to PAYEES ["label"] = amount"#, m("dobbm", "all-pass pay players to first_hand", "all-pass pay players to taker"), Refused("`taker` is not known in a payment when everyone passes")),
        (r#"all-pass pay PAYERS to PAYEES ["label"] = amount"#, m("dobbm", "all-pass pay players to first_hand", "all-pass pay players to pot.stockerl"), Refused("not into or out of a pot")),
        (r#"all-pass pay PAYERS to PAYEES ["label"] = amount"#, m("dobbm", "all-pass pay players to first_hand", "all-pass pay players first_hand"), Refused("is written `all-pass pay PAYERS to PAYEES")),
        (r#"all-pass pay PAYERS to PAYEES ["label"] = amount"#, m("dobbm", "= if table_size == 5 then ceil(10 * option.stake / 60) else 0", "= \"ten\""), Refused("takes an amount, a number")),
        (r#"all-pass pay PAYERS to PAYEES ["label"] = amount"#, m("dobbm", "= if table_size == 5 then ceil(10 * option.stake / 60) else 0", ""), Refused("needs an amount")),
        (
            r#"all-pass pay PAYERS to PAYEES ["label"] = amount"#,
            m(F, "  all-pass annul ", "  contract raeuber \"Räuber\" { dog = \"defence\" }\n  all-pass pay players to dealer = 1\n  all-pass play raeuber "),
            Refused("no deal is thrown in, so it would never be paid"),
        ),
        (r#"all-pass play CONTRACT by "who" = condition"#, m(F, "all-pass annul", "all-pass play garde by \"the holder of the 21\""), Refused("needs a condition (`= ...`) on a player's hand as dealt")),
        (r#"all-pass play CONTRACT by "who" = condition"#, m(F, "all-pass annul", "all-pass play garde = has(hand, T21)"), Refused("takes no value")),
        (r#"all-pass play CONTRACT by "who" = condition"#, m(F, "all-pass annul", "all-pass play garde by = has(hand, T21)"), Refused("the only word it takes is `annul`")),
        (r#"all-pass play CONTRACT by "who" = condition"#, m(F, "all-pass annul", "all-pass play garde by \"x\" = count(tricks) > 0"), Refused("`tricks` is not known")),
        (r#"all-pass play CONTRACT by "who" = condition"#, m(F, "all-pass annul", "all-pass play garde by \"x\" = 3"), Refused("takes a condition")),
        (
            r#"all-pass play CONTRACT by "who" = condition"#,
            m(F, "  all-pass annul ", "  contract raeuber \"Räuber\" { dog = \"defence\" }\n  all-pass play raeuber by \"forehand\" = player == first_hand\n  all-pass play raeuber "),
            Refused("it cannot also be played by a player named"),
        ),
        (
            r#"all-pass play CONTRACT by "who" = condition"#,
            m(F, "  all-pass annul ", "  contract raeuber \"Räuber\" { dog = \"defence\" }\n  all-pass play raeuber\n  all-pass annul "),
            Refused("two `all-pass` statements say what happens when everyone passes"),
        ),
        (
            r#"all-pass play CONTRACT by "who" = condition"#,
            m("galician-tarok", GI, format!("{GI}\n  all-pass play trischaken by \"eldest\" = player == first_hand")),
            Refused("it cannot be both"),
        ),
        // call
        ("levels = [rank(K), rank(Q), ...]", m("fft-5p", "levels = [rank(K), rank(Q), rank(C), rank(J)]", "levels = [rank(Q), rank(K), rank(C), rank(J)]"), Changes),
        ("levels = [rank(K), rank(Q), ...]", m("fft-5p", "levels = [rank(K), rank(Q), rank(C), rank(J)]", "levels = [rank(K), 2]"), Refused("`levels` is a list of card sets")),
        ("callable-levels = N", m("fft-5p", "callable-levels = if option.jack_call == \"jack\" then 4 else 3", "callable-levels = if option.jack_call == \"jack\" then 3 else 4"), Changes),
        ("callable-levels = N", m("fft-5p", "callable-levels = if option.jack_call == \"jack\" then 4 else 3", "callable-levels = if option.jack_call == \"jack\" then 4 else 4"), Changes),
        ("opening-lead-excludes = cards", m("fft-5p", "opening-lead-excludes = suit_of(called) - called", "opening-lead-excludes = trumps"), Changes),
        // discard
        ("taker = N", m(F, "taker = deal.dog", "taker = deal.dog - 1"), Changes),
        ("dealer = N", m(M, "  dealer = 4 ", "  dealer = 3 "), Changes),
        ("dealer = N", m(M, "others = 1", "others = 2"), Changes),
        (r#"forbid "label" = cards"#, m(F, r#"forbid "kings and oudlers" = kings + oudlers"#, r#"forbid "kings and oudlers" = oudlers + rank(Q)"#), Changes),
        (r#"forbid "label" = if option..."#, m(F, r#"forbid "kings and oudlers" = kings + oudlers"#, r#"forbid "kings and oudlers" = if option.petit_sec == "fft" then kings + oudlers + rank(Q) else kings + oudlers"#), Changes),
        (r#"forbid "label" = if option..."#, m(F, r#"forbid "kings and oudlers" = kings + oudlers"#, r#"forbid "kings and oudlers" = if option.petit_sec == "fft" then kings + oudlers else 3"#), Refused("the forbidden cards must be a set of cards")),
        (r#"unless-unavoidable "label" = cards"#, m(F, r#"unless-unavoidable "trumps" = trumps"#, r#"unless-unavoidable "trumps" = trumps + rank(Q)"#), Changes),
        (r#"penalize "label" = cards"#, m(M, "penalty = 2 * (", "penalty = 3 * ("), Changes),
        (r#"penalize "label" = cards"#, m(M, r#"penalize "trumps or Tarots" = trumps + tarots"#, r#"penalize "trumps or Tarots" = trumps"#), Changes),
        (r#"penalize "label" = cards"#, m(M, "  penalty = 2 * (", "  # = 2 * ("), Refused("`penalize` (the cards) and `penalty`")),
        (r#"require "label" = condition"#, m(F, "  forbid \"kings", "  require \"no queen\" = count(discarded, rank(Q)) == 0\n  forbid \"kings"), Changes),
        (r#""... {NAME} ...""#, m("fft-4p", "exactly {poignee_sizes} trumps", "exactly {poignee_values} trumps"), Changes),
        (r#""... {NAME} ...""#, m("fft-4p", "exactly {poignee_sizes} trumps", "exactly {poignee_size} trumps"), Refused("no top-level `let poignee_size`")),
        (r#""... {NAME} ...""#, m("fft-4p", "exactly {poignee_sizes} trumps", "exactly {poignee_sizes trumps"), Refused("opens a brace it does not close")),
        (r#"require "label" = condition"#, m(F, "  forbid \"kings", "  require \"a number\" = 5\n  forbid \"kings"), Refused("`require` takes a condition")),
        (r#"require "label" = condition"#, m(F, "  forbid \"kings", "  require = yes\n  forbid \"kings"), Refused("`require` is missing words")),
        ("dog", m(F, "  forbid \"kings", "  require \"two of the dog at most\" = count(discarded, dog) <= 2\n  forbid \"kings"), Changes),
        (r#"goes-to = "discarder" | "opponents""#, m(B, "  forbid \"5-point cards\"", "  goes-to = \"opponents\"\n  forbid \"5-point cards\""), Changes),
        (r#"goes-to = "discarder" | "opponents""#, m(B, "  forbid \"5-point cards\"", "  goes-to = if won(player) > 3 then \"discarder\" else \"opponents\"\n  forbid \"5-point cards\""), Changes),
        (r#"goes-to = "discarder" | "opponents""#, m(B, "  forbid \"5-point cards\"", "  goes-to = \"dealer\"\n  forbid \"5-point cards\""), Refused("`goes-to` is \"discarder\" or \"opponents\", not dealer")),
        ("contract.name", m(F, r#"led = "next-card-sets-suit""#, r#"led = if contract.name == "prise" then "forbidden" else "next-card-sets-suit""#), Changes),
        ("contract.name", m(F, "  dog = 6 ", "  dog = if contract.name == \"prise\" then 6 else 6 "), Refused("`contract.name` is not known before the deal")),
        ("must follow|trump|overtrump|beat = condition", m(F, "  must follow                                        @FFT", "  must follow = contract.multiplier > 1 @FFT"), Changes),
        (r#"keep = "keep" | "exchange""#, m(F, r#"keep = "exchange""#, r#"keep = if contract.multiplier >= 2 then "keep" else "exchange""#), Changes),
        ("steal", m("minchiate", "  cutter = \"some\"                                     @M4\n  dealer = \"all\"                                      @M4\n", ""), Refused("stealing needs a stealer")),
        ("steal", m("minchiate", "  cutter = \"some\"                                     @M4\n", ""), Changes),
        ("steal", m(F, "players 4\n", "players 4\n").then_top("steal {\n  cards \"kings\" = rank(K)\n  dealer = \"all\"\n}"), Refused("in a game without `bidding`")),
        ("sit-out-by-choice", m("minchiate", "  fee = [30, 40, 50, 60]                              @M4\n", ""), Refused("sitting out by choice needs `fee")),
        ("sit-out-by-choice", m("minchiate", "players 2..4", "players 2..4\nsit-out dealer from 4"), Refused("not both")),
        ("fee = [number, ...]", m("minchiate", "fee = [30, 40, 50, 60]", "fee = [35, 40, 50, 60]"), Changes),
        ("fee = [number, ...]", m("minchiate", "fee = [30, 40, 50, 60]", "fee = [30]"), Changes),
        ("fee = [number, ...]", m("minchiate", "fee = [30, 40, 50, 60]", "fee = 30"), Refused("the fee is a list")),
        ("allowed = condition", m("minchiate", "allowed = count(players) == 4", "allowed = count(players) == 3"), Changes),
        ("sat_out(p)", m("minchiate", "if not sat_out(payer) and payee == winner(last_trick)", "if payee == winner(last_trick)"), Changes),
        (r#"cards "label" = cards"#, m("minchiate", "= rubabili   @M4", "= rubabili - T22   @M4"), Changes),
        (r#"cards "label" = cards"#, m("minchiate", "  cards \"a noble card or a trump from 21 to 27\" = rubabili   @M4\n", ""), Refused("stealing needs `cards")),
        (r#"cutter = "some" | "all""#, m("minchiate", "cutter = \"some\"", "cutter = \"all\""), Changes),
        (r#"cutter = "some" | "all""#, m("minchiate", "cutter = \"some\"", "cutter = \"first\""), Refused("`cutter` is one of \"some\", \"all\"")),
        (r#"dealer = "some" | "all""#, m("minchiate", "dealer = \"all\"", "dealer = \"some\""), Changes),
        (r#"dealer = "some" | "all""#, m("minchiate", "  dealer = \"all\"                                      @M4\n", ""), Changes),
        ("talon", m(F, "  taker = deal.dog ", "  taker = deal.dog / 2 ").then_top("talon {\n  packets = 2\n}"), Changes),
        ("talon", m(B, "players 2..6", "players 2..6").then_top("talon {\n  packets = 2\n}"), Refused("the ruleset needs `bidding`")),
        ("packets = K", m(F, "  taker = deal.dog ", "  taker = deal.dog / contract.multiplier ").then_top("talon {\n  packets = contract.multiplier\n}"), Changes),
        ("packets = K", m(F, "players 4\n", "players 4\n").then_top("talon {\n  rest = \"taker\"\n}"), Refused("the talon needs `packets = N`")),
        (r#"rest = "defence" | "taker""#, m(F, "  taker = deal.dog ", "  taker = deal.dog / 2 ").then_top("talon {\n  packets = 2\n  rest = \"taker\"\n}"), Changes),
        (r#"discard = "after" | "before""#, m(F, "players 4\n", "players 4\n").then_top("talon {\n  packets = 1\n  discard = \"before\"\n}"), Changes),
        (r#"discard = "after" | "before""#, m(F, "players 4\n", "players 4\n").then_top("talon {\n  packets = 1\n  discard = \"later\"\n}"), Refused("`discard` is one of \"after\", \"before\", not \"later\"")),
        (r#"rest = "defence" | "taker""#, m(F, "  taker = deal.dog ", "  taker = deal.dog / 2 ").then_top("talon {\n  packets = 2\n  rest = \"dealer\"\n}"), Refused("`rest` is one of")),
        // Königrufen's Solorufer: the talon's half with the called king counts for the declarer (HK 4.5 b).
        ("packet", m("koenigrufen", KT, r#"rest = if contract.name == "solorufer" and has(packet, called) then "defence" else "defence""#), Changes),
        ("packet", m("koenigrufen", KT, r#"rest = if contract.name == "solorufer" and has(packet, KS) then "taker" else "defence""#), Changes),
        ("packet", probe("count(packet)"), Refused("`packet` is not known in the score")),
        ("given = K", m("tapp-tarock", "  rest = \"defence\"  ", "  given = 2\n  rest = \"defence\"  "), Changes),
        ("given = K", m("tapp-tarock", "  rest = \"defence\"  ", "  given\n  rest = \"defence\"  "), Refused("`given` needs a value")),
        ("given = K", m("tapp-tarock", "  rest = \"defence\"  ", "  given = \"top\"\n  rest = \"defence\"  "), Refused("`given` is the number of a packet of the talon")),
        ("unseen", m("tapp-tarock-1821", "  unseen                ", "  # unseen              "), Changes),
        ("split = N", m("cego", "  split = contract.split ", "  split = contract.split - 1 "), Changes),
        ("split = N", m("cego", "  split = contract.split ", "  split = 0              "), Refused("a whole number from 1, not 0")),
        ("split = N", m("cego", "  split = contract.split ", "  split = contract.split\n  discard = \"after\""), Refused("would contradict")),
        ("unseen", m("tapp-tarock", "  rest = \"defence\"  ", "  unseen = yes\n  rest = \"defence\"  "), Refused("`unseen`")),
        ("buy", m(F, "players 4\n", "players 4\n").then_top("buy {\n  cards = 1\n}"), Changes),
        ("buy", m(B, "players 2..6", "players 2..6").then_top("buy {\n  cards = 1\n}"), Refused("cards are bought by the taker")),
        ("cards = N", m(F, "players 4\n", "players 4\n").then_top("buy {\n  cards = if contract.name == \"garde\" then 1 else 0\n}"), Changes),
        ("cards = N", m(F, "players 4\n", "players 4\n").then_top("buy {\n  count = 1\n}"), Refused("unknown buy statement")),
        // declarations
        ("declaration", m(F, "declaration chelem \"chelem\" {", "declaration chelem \"chelem\" = yes {"), Refused("`declaration` takes no value")),
        ("when before-play | after-discard | first-play", m(F, "  when first-play", "  when before-play"), Changes),
        ("when before-play | after-discard | first-play", m(F, "  when first-play", "  when after-discard"), Changes),
        ("when before-play | after-discard | first-play", m(F, "  when first-play", "  when first-trick"), Refused("`when` is before-play, after-discard or first-play")),
        ("by taker | attack | defence | any | any-side", m(F, "  by taker", "  by any"), Changes),
        ("by taker | attack | defence | any | any-side", m(F, "  by taker", "  by defence"), Changes),
        ("by taker | attack | defence | any | any-side", m(F, "  by taker", "  by attackers"), Refused("`by` is `taker`, `attack`, `defence`, `any` or `any-side`")),
        ("by taker | attack | defence | any | any-side", m(M, "  shows = tarots\n", "  shows = tarots\n  by defence\n"), Refused("`by defence` needs a taker")),
        (AL, m(F, "  by taker", "  by taker\n  allowed = contract.multiplier > 1"), Changes),
        (AL, m(F, "  by taker", "  by taker\n  allowed = count(tricks) > 0"), Refused("`tricks` is not known in a declaration's `allowed`")),
        (AL, m(F, "  by taker", "  by taker\n  allowed = 2"), Refused("`allowed` takes a condition")),
        // One per reason, all of them binding; a second without a reason, or a reason given twice, is refused.
        (AL, m(F, "  by taker", "  by taker\n  allowed = yes\n  allowed \"only with a Garde or more\" = contract.multiplier > 1"), Changes),
        (AL, m(F, "  by taker", "  by taker\n  allowed = yes\n  allowed = contract.multiplier > 1"), Refused("`allowed` is written twice")),
        (AL, m(F, "  by taker", "  by taker\n  allowed \"a Garde\" = yes\n  allowed \"a Garde\" = contract.multiplier > 1"), Refused("`allowed a Garde` is written twice")),
        (AL, m(F, "  by taker", "  by taker\n  allowed \"a Garde\" \"or more\" = contract.multiplier > 1"), Refused("`allowed` takes at most 1 word(s)")),
        (AL, m(F, "  by taker", "  by taker\n  allowed \"at least {garde}\" = contract.multiplier > 1"), Refused("no top-level `let garde`")),
        ("keeps = cards", m(F, "  by taker", "  by taker\n  keeps = T1"), Changes),
        ("keeps = cards", m(F, "  by taker", "  by taker\n  keeps = 1"), Refused("this must be a set of cards")),
        ("compulsory", m("grosstarock", "declaration trumps \"Trumps\" {\n  compulsory", "declaration trumps \"Trumps\" {\n  # compulsory"), Changes),
        // declarations in turn from first hand (Grosstarock, PW "Declarations": "In turn")
        ("in-turn", m("grosstarock", "declaration trumps \"Trumps\" {\n  compulsory = option.declarations == \"PW\"                                @PW \"Declarations\"\n  from hand-and-discard                                                   @PW \"Deal and Discard\"\n  in-turn", "declaration trumps \"Trumps\" {\n  compulsory = option.declarations == \"PW\"                                @PW \"Declarations\"\n  from hand-and-discard                                                   @PW \"Deal and Discard\"\n  # in-turn"), Changes),
        ("in-turn", m("grosstarock", "declaration kings \"Kings\" {\n  compulsory = option.declarations == \"PW\"                                @PW \"Declarations\"\n  from hand-and-discard                                                   @PW \"Deal and Discard\"\n  in-turn", "declaration kings \"Kings\" {\n  compulsory = option.declarations == \"PW\"                                @PW \"Declarations\"\n  from hand-and-discard                                                   @PW \"Deal and Discard\"\n  in-turn = yes"), Refused("`in-turn` is a switch and takes no value")),
        // declarations in turn from the dealer, and compulsory, as an option says (Grosstarock's option
        // declarations = "1754": L1754 §2, the dealer declares first, an honour not declared is not paid)
        // Kings not in turn at all (neither line): the out-of-turn fixtures, under either option, change.
        ("in-turn from dealer = condition", m("grosstarock", "  in-turn                                                                 @PW \"Declarations\"\n  in-turn from dealer = option.declarations == \"1754\"                     @L1754 \"2.\"\n  shows = kings + EX", "  shows = kings + EX"), Changes),
        // Kings alone in turn from first hand under 1754, the others from the dealer: two orders.
        ("in-turn from dealer = condition", m("grosstarock", "  in-turn from dealer = option.declarations == \"1754\"                     @L1754 \"2.\"\n  shows = kings + EX", "  # in-turn from dealer\n  shows = kings + EX"), Refused("with option.declarations = \"1754\", declaration `kings` is made in turn from first hand and `trumps`, of the same timing, in turn from the dealer")),
        ("in-turn from dealer = condition", m("grosstarock", "  in-turn from dealer = option.declarations == \"1754\"                     @L1754 \"2.\"\n  shows = kings + EX", "  in-turn from dealer = true\n  shows = kings + EX"), Refused("this condition reads none")),
        ("in-turn from dealer = condition", m("grosstarock", "  in-turn from dealer = option.declarations == \"1754\"                     @L1754 \"2.\"\n  shows = kings + EX", "  in-turn from dealer = count(hand, kings) == 4\n  shows = kings + EX"), Refused("`hand` is not known before the deal")),
        ("in-turn from dealer = condition", m("grosstarock", "  in-turn from dealer = option.declarations == \"1754\"                     @L1754 \"2.\"\n  shows = kings + EX", "  in-turn from dealer = option.deals\n  shows = kings + EX"), Refused("must be true or false")),
        ("in-turn from dealer = condition", m("grosstarock", "  in-turn from dealer = option.declarations == \"1754\"                     @L1754 \"2.\"\n  shows = kings + EX", "  in-turn from seat\n  shows = kings + EX"), Refused("`in-turn` is written `in-turn` (from first hand), `in-turn from dealer`")),
        ("compulsory = condition", m("grosstarock", "declaration trumps \"Trumps\" {\n  compulsory = option.declarations == \"PW\"", "declaration trumps \"Trumps\" {\n  compulsory = option.declarations == \"1754\""), Changes),
        ("compulsory = condition", m("grosstarock", "declaration trumps \"Trumps\" {\n  compulsory = option.declarations == \"PW\"", "declaration trumps \"Trumps\" {\n  compulsory = count(hand, trumps) > 9"), Refused("`hand` is not known before the deal")),
        ("compulsory = condition", m("grosstarock", "declaration trumps \"Trumps\" {\n  compulsory = option.declarations == \"PW\"", "declaration trumps \"Trumps\" {\n  compulsory = if option.declarations == \"PW\" then 1 else 0"), Refused("must be true or false")),
        // a show with the cards laid away (Grosstarock's dealer, PW "Deal and Discard")
        (
            "from hand | hand-and-discard",
            m("grosstarock", "Cavallerie in hearts\" {\n  compulsory = option.declarations == \"PW\"                                @PW \"Declarations\"\n  from hand-and-discard", "Cavallerie in hearts\" {\n  compulsory\n  from hand"),
            Changes,
        ),
        ("from hand | hand-and-discard", m("grosstarock", "Cavallerie in hearts\" {\n  compulsory = option.declarations == \"PW\"                                @PW \"Declarations\"\n  from hand-and-discard", "Cavallerie in hearts\" {\n  compulsory\n  from discard"), Refused("`from` is `from hand`")),
        ("from hand | hand-and-discard", m("minchiate", "declaration versicola \"versicola\" {", "declaration versicola \"versicola\" {\n  from hand-and-discard"), Refused("nobody lays cards away")),
        // pots (N9)
        ("pot NAME \"label\"", m("grosstarock", "pot pagat \"the Pagat pot\"", "pot pagat \"the Pagat pot\"\npot kitty \"a kitty\""), Refused("nothing is paid into pot `kitty`")),
        ("pot NAME \"label\"", m("grosstarock", "pot pagat \"the Pagat pot\"", "pot king \"the Pagat pot\""), Refused("pot `king` is declared twice")),
        ("pot NAME \"label\"", m("grosstarock", "pay dealer to pot.king \"King pot stake\"", "pay dealer to pot.kings \"King pot stake\""), Refused("unknown pot `kings`; pots are: king, pagat")),
        ("pay PAYERS to pot.NAME [\"label\"] = amount", m("grosstarock", "pay dealer to pot.king \"King pot stake\" = 5", "pay dealer to pot.king \"King pot stake\" = 10"), Changes),
        ("pay PAYERS to pot.NAME [\"label\"] = amount", m("grosstarock", "pay pot.king to players \"King pot won\"", "pay pot.king to pot.pagat \"King pot won\""), Refused("not from one pot to another")),
        ("pay PAYERS to pot.NAME [\"label\"] = amount", m("grosstarock", "pay dealer to pot.king \"King pot stake\" = 5", "pay dealer to pot.king \"King pot stake\" = if payee == dealer then 5 else 0"), Refused("`payee` is pot `king` here, not a player")),
        ("on play CLASS \"label\" to pot.NAME = marques", m("grosstarock", "on play kings \"King pot for a lost king\" to pot.king = if not last and not won_by_player then -5", "on play kings \"King pot for a lost king\" to pot.king = if not last and not won_by_player then -10"), Changes),
        ("on play CLASS \"label\" to pot.NAME = marques", m("grosstarock", "on play kings \"King pot for a lost king\" to pot.king", "on play kings \"King pot for a lost king\" to kitty"), Refused("or to a pot: `to pot.NAME`")),
        ("pot.NAME", m("grosstarock", "then pot.king else 0       @PW \"Payments\"", "then pot.king / 2 else 0       @PW \"Payments\""), Changes),
        ("pot.NAME", m("grosstarock", "class kings = rank(K)", "class kings = rank(K)\nlet stake = pot.king"), Refused("`pot.king` is not known before the deal")),
        ("pot.NAME.carried", m("grosstarock", "if pot.king.carried == 0 then option.pot_foundation", "if pot.king.carried < 1000 then option.pot_foundation"), Changes),
        ("pot.NAME.carried", m("grosstarock", "if pot.king.carried == 0 then option.pot_foundation", "if pot.kitty.carried == 0 then option.pot_foundation"), Refused("unknown pot `kitty`")),
        // a declaration that ends the match (Tarocchini's calling out at 800)
        ("ends-match", m("tarocchini", "  ends-match                                                                                  @MBO \"4.1.1 Ottocento\"\n", ""), Changes),
        ("ends-match", m("tarocchini", "match {\n  target = 800                                       @MBO \"4.1.1 Ottocento\"\n}", ""), Refused("`ends-match` ends the match, but the ruleset has no `match")),
        ("ends-match", m("tarocchini", "  ends-match                                                                                  @MBO", "  ends-match now                                                                              @MBO"), Refused("`ends-match`")),
        // a declaration that names who deals the match's last deal (Cego's "Der Gstieß gibt ab")
        (LD, m("cego", "= has(hand, EX)   @P \"Ending the Session\"", "= not has(hand, EX)   @P \"Ending the Session\""), Changes),
        (LD, m("cego", "  ends-match after-deal-by \"the holder of the Gstieß\" = has(hand, EX)   @P \"Ending the Session\"\n", ""), Refused("or leave it empty, `match { }`, where a declaration ends the match")),
        (LD, m("cego", "match { }                                             @P \"Ending the Session\"\n", ""), Refused("`ends-match` ends the match, but the ruleset has no `match")),
        (LD, m("cego", "  ends-match after-deal-by \"the holder of the Gstieß\" = has(hand, EX)", "  ends-match after-deal-by = has(hand, EX)"), Refused("`ends-match after-deal-by \"who\" = condition")),
        (LD, m("cego", "= has(hand, EX)   @P \"Ending the Session\"", "= has(hand, EX)   @P \"Ending the Session\"\n  ends-match"), Refused("ends the match once")),
        (LD, m("cego", "= has(hand, EX)   @P \"Ending the Session\"", "= count(tricks) > 0   @P \"Ending the Session\""), Refused("`tricks` is not known")),
        // a declaration made again: a double answered without limit (Dobbm's Retours)
        ("repeats", m("dobbm", RETOUR_REPEATS, retour("")), Changes),
        ("repeats", m("dobbm", RETOUR_REPEATS, retour("  repeats\n  shows = trumps\n")), Refused("`repeats` cannot go with `shows`")),
        ("repeats", m("dobbm", RETOUR_REPEATS, retour("  repeats\n  compulsory\n")), Refused("`repeats` cannot go with `compulsory`")),
        ("repeats", m("dobbm", RETOUR_REPEATS, retour("  repeats\n  ends-deal\n")), Refused("`repeats` cannot go with `ends-deal`")),
        ("repeats", m("dobbm", RETOUR_REPEATS, retour("  repeats again\n")), Refused("`repeats` is a switch")),
        // a declaration that ends the deal unplayed, made before the talon is taken (Königrufen's Schleifen)
        ("ends-deal", m("koenigrufen", "  ends-deal                                           @HK \"4.5\"\n}\n\n# The premiums", "}\n\n# The premiums"), Changes),
        ("ends-deal", m("koenigrufen", "  ends-deal                                           @HK \"4.5\"\n}\n\n# The premiums", "  ends-deal                                           @HK \"4.5\"\n  compulsory\n}\n\n# The premiums"), Refused("`ends-deal` cannot go with `compulsory`")),
        ("ends-deal", m("koenigrufen", "  ends-deal                                           @HK \"4.5\"\n}\n\n# The premiums", "  ends-deal now\n}\n\n# The premiums"), Refused("`ends-deal`")),
        ("when before-take", m("koenigrufen", "declaration schleifen \"Schleifen\" {\n  when before-take", "declaration schleifen \"Schleifen\" {\n  when after-discard"), Changes),
        ("when before-take", m("koenigrufen", "talon {\n  packets = contract.talon                            @HK \"4.2\"\n  rest = if contract.name == \"solorufer\" and has(packet, called) then \"taker\" else \"defence\"   @HK \"4.5\"\n}", ""), Refused("but the ruleset has no `talon")),
        (AL, m("koenigrufen", "declaration schleifen \"Schleifen\" {\n  when before-take                                    @HK \"4.5\"\n  by taker                                            @HK \"4.5\"\n  allowed = contract.name == \"rufer\"                  @HK \"4.5\"\n  allowed \"only when the called king lies in the talon\" = has(dog, called)", "declaration schleifen \"Schleifen\" {\n  when before-take                                    @HK \"4.5\"\n  by taker                                            @HK \"4.5\"\n  allowed = contract.name == \"rufer\"                  @HK \"4.5\"\n  allowed \"only when the called king lies in the talon\" = yes"), Changes),
        (AL, m("tapp-tarock", "declaration trull_bonus \"Trull\" {\n", "declaration trull_bonus \"Trull\" {\n  allowed = has(dog, called)\n"), Refused("reads `called`, but the ruleset has no `call")),
        // right after the deal, on the first cards dealt (Tarocchini's dealer calling out on his first 15)
        ("when after-deal", m("tarocchini", "  when after-deal  ", "  when first-play  "), Changes),
        ("when before-play | after-discard | first-play", m("tapp-tarock", "declaration trull_bonus \"Trull\" {\n", "declaration trull_bonus \"Trull\" {\n  when after-play\n"), Changes),
        ("when before-play | after-discard | first-play", m("tapp-tarock", "declaration trull_bonus \"Trull\" {\n", "declaration trull_bonus \"Trull\" {\n  when after-play\n  compulsory\n"), Refused("cannot have `compulsory`")),
        ("when after-deal", m("tarocchini", "  allowed \"only by the dealer\" = player == dealer  ", "  compulsory\n  allowed \"only by the dealer\" = player == dealer  "), Refused("cannot be `compulsory`")),
        // between the auction's rounds, a hand thrown in (Oberwolfach's seven empty cards after three Forts)
        ("when after-opening-round", m("cego-oberwolfach", "  when after-opening-round  ", "  when before-play  "), Changes),
        ("when after-opening-round", m("cego-oberwolfach", "  when after-opening-round  ", "  compulsory\n  when after-opening-round  "), Refused("cannot be `compulsory`")),
        ("when after-opening-round", m("cego-oberwolfach", "  allowed \"only with seven empty cards or more\" = count(hand, pips) >= 7", "  allowed \"only with seven empty cards or more\" = count(hand, pips) >= contract.factor"), Refused("before anyone has won it")),
        ("ends-deal annul", m("cego-oberwolfach", "  ends-deal annul  ", "  ends-deal  "), Changes),
        ("ends-deal annul", m("cego-oberwolfach", "  ends-deal annul  ", "  pay players to players = 1\n  ends-deal annul  "), Refused("pays nothing")),
        ("ends-deal annul", m("cego-oberwolfach", "  ends-deal annul  ", "  ends-deal annulled  "), Refused("`ends-deal annul`")),
        ("dealt(p, N)", m("tarocchini", "has(dealt(player, 15), shown)", "has(dealt(player, 17), shown)"), Changes),
        ("dealt(p, N)", m("tarocchini", "has(dealt(player, 15), shown)", "has(dealt(player), shown)"), Refused("`dealt` takes 2 argument(s), not 1")),
        ("bid_before(p, CONTRACT)", m("tapp-tarock-1821", "not bid_before(player, tapp)", "not bid_before(player, three)"), Changes),
        ("bid_before(p, CONTRACT)", m("tapp-tarock-1821", "not bid_before(player, tapp)", "not bid_before(player, tap)"), Refused("unknown contract `tap` in `bid_before`")),
        // in the score, the whole auction (Cego's Gegensolo: a game bid over a Solo)
        ("bid_before(p, CONTRACT)", m("cego", "any(p in players where bid_before(p, solo))", "any(p in players where bid_before(p, eine))"), Changes),
        ("bid_before(p, CONTRACT)", m("minchiate", "score {\n", "score {\n  note \"probe\" = bid_before(players[0], solo)\n"), Refused("`bid_before` reads the auction, and this ruleset has no `bidding`")),
        ("passed_over(p, CONTRACT)", m("dreierles", "not passed_over(player, dreier)   @P \"Knocking: Kontra and Re\"\n  require \"the opponents knock once\"", "not passed_over(player, zweier)   @P \"Knocking: Kontra and Re\"\n  require \"the opponents knock once\""), Changes),
        ("passed_over(p, CONTRACT)", m("dreierles", "not passed_over(player, dreier)   @P \"Knocking: Kontra and Re\"\n  require \"the opponents knock once\"", "not passed_over(player, drei)   @P \"Knocking: Kontra and Re\"\n  require \"the opponents knock once\""), Refused("unknown contract `drei` in `passed_over`")),
        ("passed_over(p, CONTRACT)", m("minchiate", "score {\n", "score {\n  note \"probe\" = passed_over(players[0], solo)\n"), Refused("`passed_over` reads the auction, and this ruleset has no `bidding`")),
        ("every-card-counts", m("tarocchini", "  every-card-counts                                                 @MBT \"p. 79\"\n", ""), Changes),
        ("every-card-counts", m(F, "declaration chelem \"chelem\" {", "declaration chelem \"chelem\" {\n  every-card-counts"), Refused("`every-card-counts` needs `shows` and a `value`")),
        ("every-card-counts", m("tarocchini", "  every-card-counts                                                 @MBT", "  every-card-counts = yes                                           @MBT"), Refused("takes no value")),
        // the match so far: the record's standing (Troccas, BE §7)
        ("carried(p)", m("troccas", "carried(first_hand) <= -9", "carried(first_hand) <= -13"), Changes),
        ("carried(p)", m("troccas", "class kings = rank(K)", "class kings = rank(K)\nlet debt = carried(dealer)"), Refused("`carried` looks at the game being played")),
        ("deal { require \"label\" = condition }", m("troccas", "= option.asked == \"no\" or", "= option.asked == \"yes\" or"), Changes),
        ("deal { require \"label\" = condition }", m("troccas", "= option.asked == \"no\" or carried(dealer)", "= option.asked == \"no\" or has(hand, T1) or carried(dealer)"), Refused("in the deal's `require`")),
        ("deal { require \"label\" = condition }", m("troccas", "require \"only a side owing nine or more asks for the cards nine and ten\" \\", "require \\"), Refused("`require \"label\" = condition`")),
        ("compulsory", m(M, "  shows = kings + EX", "  shows = kings + EX\n  compulsory"), Changes),
        ("compulsory", m("grosstarock", "declaration kings \"Kings\" {\n  compulsory = option.declarations == \"PW\"", "declaration kings \"Kings\" {\n  compulsory = yes"), Refused("`compulsory` is a switch and takes no value")),
        ("shows = cards", m(M, "shows = kings + EX", "shows = kings"), Changes),
        (r#"require "message" = condition"#, m(F, "= contains(poignee_sizes, count(shown))", "= contains(poignee_sizes, count(shown)) and count(shown) > 10"), Changes),
        ("value = formula", m(F, "value = poignee_values[index(poignee_sizes, count(shown))]", "value = 1 + poignee_values[index(poignee_sizes, count(shown))]"), Changes),
        ("paid", m("fft-4p-misere", "paid by-everyone", "paid"), Changes),
        ("paid", m("fft-4p-misere", "paid by-everyone", "paid by-all"), Refused("`paid by-all`")),
        ("paid", m("fft-4p-misere", "paid by-everyone", "paid by-everyone\n  paid-by = yes"), Refused("a declaration says who pays it once")),
        ("paid-by = condition", m(M, "paid-by = count(hand_of(payer), trull) == 0", "paid-by = count(hand_of(payer), trull) <= 1"), Changes),
        (r#"declaration NAME { pay PAYERS to PAYEES ["label"] = amount }"#, m("cego-3", "then 35 * contract.factor else 0", "then 30 * contract.factor else 0"), Changes),
        (r#"declaration NAME { pay PAYERS to PAYEES ["label"] = amount }"#, m("koenigrufen", "  value = -1                                          @HK \"7.7\"", "  value = -1                                          @HK \"7.7\"\n  pay players to players = if payer == player then 1 else 0"), Changes),
        (r#"declaration NAME { pay PAYERS to PAYEES ["label"] = amount }"#, m("koenigrufen", "  value = -1                                          @HK \"7.7\"", "  value = -1                                          @HK \"7.7\"\n  pay players to pot.kitty = 1"), Refused("a declaration's payment goes between players, not into or out of a pot")),
        (r#"declaration NAME { pay PAYERS to PAYEES ["label"] = amount }"#, m("koenigrufen", "  value = -1                                          @HK \"7.7\"", "  value = -1                                          @HK \"7.7\"\n  pay players = 1"), Refused("a declaration's payment is written `pay PAYERS to PAYEES")),
        (r#"declaration NAME { pay PAYERS to PAYEES ["label"] = amount }"#, m("koenigrufen", "  value = -1                                          @HK \"7.7\"", "  value = -1                                          @HK \"7.7\"\n  pay players to players = count(tricks)"), Refused("`tricks` is not known in a declaration's `pay`")),
        // play
        ("lead = formula", m(B, "lead = first_hand", "lead = dealer"), Changes),
        ("must follow", m(F, "  must follow                                        @FFT", "  must follow = no @FFT"), Changes),
        ("must follow|trump|overtrump|beat = condition", m(F, "  must follow                                        @FFT", "  must follow = option.excuse_last_trick == \"to-winner\" @FFT"), Changes),
        ("must follow", m(F, "  must trump                                         @FFT", "  must follow @FFT"), Refused("`must follow` is written twice")),
        ("must trump", m(F, "  must trump                                         @FFT", "  must trump = no @FFT"), Changes),
        ("must trump", m(F, "  must follow                                        @FFT \"Le jeu de la carte\"\n  must trump ", "  must trump @FFT \"Le jeu de la carte\"\n  must follow "), Refused("`must follow` is written after `must trump`")),
        ("must overtrump", m(F, "  must overtrump                                     @FFT", "  must overtrump = no @FFT"), Changes),
        ("must follow|trump|overtrump|beat = condition", m(F, "  must overtrump                                     @FFT", "  must overtrump = 5 @FFT"), Refused("takes a condition, yes or no")),
        ("must overtrump", m(F, "  must overtrump                                     @FFT", "  must overtrump always @FFT"), Refused("`must overtrump` takes no further word")),
        ("must beat", m(F, "  must overtrump                                     @FFT \"Le jeu de la carte\"", "  must overtrump                                     @FFT \"Le jeu de la carte\"\n  must beat"), Changes),
        (r#"wins CARD "label" = cards"#, m(F, "  must overtrump                                     @FFT \"Le jeu de la carte\"", "  must overtrump                                     @FFT \"Le jeu de la carte\"\n  wins T1 \"the Petit takes the 21\" = T21"), Changes),
        (r#"wins CARD "label" = cards"#, m(F, "  must overtrump                                     @FFT \"Le jeu de la carte\"", "  must overtrump                                     @FFT \"Le jeu de la carte\"\n  wins T0 \"x\" = T21"), Refused("`T0`: unknown card")),
        (r#"wins CARD "label" = cards"#, m(F, "  must overtrump                                     @FFT \"Le jeu de la carte\"", "  must overtrump                                     @FFT \"Le jeu de la carte\"\n  wins T1 \"x\" = 21"), Refused("`wins` takes the cards that must be in the trick")),
        (r#"must lead|play CARDS "label" [= condition]"#, m(F, "  must overtrump                                     @FFT \"Le jeu de la carte\"", "  must overtrump                                     @FFT \"Le jeu de la carte\"\n  must lead T1 \"the 1 leads\""), Changes),
        (r#"must lead|play CARDS "label" [= condition]"#, m(F, "  must overtrump                                     @FFT \"Le jeu de la carte\"", "  must overtrump                                     @FFT \"Le jeu de la carte\"\n  must play kings \"kings first\" = player == taker"), Changes),
        (r#"must lead|play CARDS "label" [= condition]"#, m(F, "  must overtrump                                     @FFT \"Le jeu de la carte\"", "  must overtrump                                     @FFT \"Le jeu de la carte\"\n  must lead T99 \"x\""), Refused("`T99`: unknown card or card class")),
        (r#"must lead|play CARDS "label" [= condition]"#, m(F, "  must overtrump                                     @FFT \"Le jeu de la carte\"", "  must overtrump                                     @FFT \"Le jeu de la carte\"\n  must lead T1 \"x\" = 2"), Refused("takes a condition, yes or no")),
        (
            r#"must lead|play "label" = cards"#,
            m(F, "  must overtrump                                     @FFT \"Le jeu de la carte\"", "  must overtrump                                     @FFT \"Le jeu de la carte\"\n  must lead \"a dealt trump first\" = if count(tricks) == 0 then hand_of(player) - (hand_of(player) - hand) - suit(C, D, H, S) else none"),
            Changes,
        ),
        (
            r#"must lead|play "label" = cards"#,
            m(F, "  must overtrump                                     @FFT \"Le jeu de la carte\"", "  must overtrump                                     @FFT \"Le jeu de la carte\"\n  must play \"x\" = count(tricks) == 0"),
            Refused("takes the cards that must be played"),
        ),
        (
            r#"must lead|play "label" = cards"#,
            m(F, "  must overtrump                                     @FFT \"Le jeu de la carte\"", "  must overtrump                                     @FFT \"Le jeu de la carte\"\n  must lead \"x\" = dog"),
            Refused("`dog` is not known in the condition of `must lead|play`"),
        ),
        (
            r#"must play CARDS "label" instead [= condition]"#,
            m(F, "  must overtrump                                     @FFT \"Le jeu de la carte\"", "  must overtrump                                     @FFT \"Le jeu de la carte\"\n  must play \"trumps to the first trick\" instead = if count(tricks) == 0 then trumps else none"),
            Changes,
        ),
        (r#"must play CARDS "label" instead [= condition]"#, m("cego-ministranten", "  must play \"Brettli where no trump can be given\" instead", "  must play \"Brettli where no trump can be given\""), Changes),
        (
            r#"must play CARDS "label" instead [= condition]"#,
            m(F, "  must overtrump                                     @FFT \"Le jeu de la carte\"", "  must overtrump                                     @FFT \"Le jeu de la carte\"\n  must lead T1 \"x\" instead"),
            Refused("and a lead has none"),
        ),
        (
            r#"must play CARDS "label" instead [= condition]"#,
            m("cego-ministranten", "play {\n  without must lead", "play {\n  without must follow\n  without must trump\n  without must lead"),
            Refused("it would never apply"),
        ),
        (r#"keep CARDS "label" [while CLASS] [= condition]"#, m(F, "  must overtrump                                     @FFT \"Le jeu de la carte\"", "  must overtrump                                     @FFT \"Le jeu de la carte\"\n  keep T21 \"the 21 to the last\""), Changes),
        (r#"keep CARDS "label" [while CLASS] [= condition]"#, m(F, "  must overtrump                                     @FFT \"Le jeu de la carte\"", "  must overtrump                                     @FFT \"Le jeu de la carte\"\n  keep T1 \"x\" while kings = player == taker"), Changes),
        (r#"keep CARDS "label" [while CLASS] [= condition]"#, m(F, "  must overtrump                                     @FFT \"Le jeu de la carte\"", "  must overtrump                                     @FFT \"Le jeu de la carte\"\n  keep T1 while kings"), Refused("`keep` is written")),
        ("must beat", m(F, "  must overtrump                                     @FFT \"Le jeu de la carte\"", "  must overtrump                                     @FFT \"Le jeu de la carte\"\n  must beat\n  must beat"), Refused("`must beat` is written twice")),
        ("must follow|trump|overtrump|beat = condition", m(F, "  must overtrump                                     @FFT \"Le jeu de la carte\"", "  must overtrump                                     @FFT \"Le jeu de la carte\"\n  must beat = contract.name == \"garde\""), Changes),
        (r#"end "label" = condition"#, m(F, "  must overtrump                                     @FFT \"Le jeu de la carte\"", "  must overtrump                                     @FFT \"Le jeu de la carte\"\n  end \"the taker took a trick\" = won(taker) > 0"), Changes),
        (r#"end "label" = condition"#, m(F, "  must overtrump                                     @FFT \"Le jeu de la carte\"", "  must overtrump                                     @FFT \"Le jeu de la carte\"\n  end = won(taker) > 0"), Refused("`end` is written `end \"label\" = condition`")),
        (r#"end "label" = condition"#, m(F, "  must overtrump                                     @FFT \"Le jeu de la carte\"", "  must overtrump                                     @FFT \"Le jeu de la carte\"\n  end \"x\" = 3"), Refused("takes a condition, yes or no")),
        (r#"end "label" = condition"#, m(F, "  must overtrump                                     @FFT \"Le jeu de la carte\"", "  must overtrump                                     @FFT \"Le jeu de la carte\"\n  end \"x\" = won(taker) > points(nobody)"), Refused("nobody")),
        ("must overtrump", m("fft-5p", "players 5 ", "play {\n  without must overtrumps\n}\nplayers 5 "), Refused("did you mean `without must overtrump`?")),
        ("must overtrump", m("fft-5p", "players 5 ", "without must overtrump\nplayers 5 "), Refused("write `play { without must overtrump }`")),
        (r#"direction = "anticlockwise" | "clockwise""#, m(B, "direction = option.direction", "direction = if option.direction == \"clockwise\" then \"anticlockwise\" else \"clockwise\""), Changes),
        (r#"direction = "anticlockwise" | "clockwise""#, m(B, "direction = option.direction", "direction = \"left\""), Refused("`direction` is one of")),
        ("last-trump = cards", m("galician-tarok", GL, "  last-trump = none"), Changes),
        ("last-trump = cards", m("galician-tarok", GL, "  last-trump = 5"), Refused("`last-trump` takes cards")),
        ("last-trump = cards", m("galician-tarok", GL, "  last-trump = if count(tricks) > 0 then T1 else none"), Refused("`tricks` is not known")),
        ("trumps-win = condition", m("galician-tarok", GT, "  trumps-win = yes"), Changes),
        // Troggu's Bättler withheld (P "Play"): spared from the trump obligations, kept, played as the Excuse.
        (r#"withhold CARDS "label" [= condition]"#, m("troggu", TW, r#"  withhold EX "the Fool as his only trump" = contract.name == "misere""#), Changes),
        (r#"withhold CARDS "label" [= condition]"#, m("troggu", TW, r#"  withhold KS "the king of swords""#), Refused("`withhold` spares trumps from the trump obligations, and KS is no trump of this pack")),
        (r#"withhold CARDS "label" [= condition]"#, m("troggu", TW, "  withhold EX"), Refused("`withhold CARDS \"label\" [= condition]`")),
        (r#"withhold CARDS "label" [= condition]"#, m("troggu", TW, r#"  withhold EX "x" = count(discarded) > 0"#), Refused("`discarded` is not known")),
        (r#"withhold CARDS "label" [= condition]"#, m("troggu", TW, r#"  withhold EX "x" = 3"#), Refused("takes a condition, yes or no")),
        (
            r#"withhold CARDS "label" [= condition]"#,
            m("troggu", "  must follow                                         @P\n  must trump                                          @P\n", ""),
            Refused("neither `must follow` nor `must trump`: it would never apply"),
        ),
        (r#"excuse CARDS "label" [= condition]"#, m("troggu", TX, r#"  excuse EX "the Fool withheld takes no trick" = no"#), Changes),
        (r#"excuse CARDS "label" [= condition]"#, m("troggu", TX, r#"  excuse EX "the Fool takes no trick""#), Changes),
        (r#"excuse CARDS "label" [= condition]"#, m(F, "  must overtrump                                     @FFT \"Le jeu de la carte\"", "  must overtrump                                     @FFT \"Le jeu de la carte\"\n  excuse EX \"x\""), Refused("EX is this pack's Excuse already")),
        (r#"excuse CARDS "label" [= condition]"#, m("troggu", TX, "  excuse EX = has(withheld(player), EX)"), Refused("`excuse CARDS \"label\" [= condition]`")),
        (r#"excuse CARDS "label" [= condition]"#, m("troggu", TX, r#"  excuse XX "x""#), Refused("`XX`: unknown card or card class")),
        (r#"loses "label" = cards"#, m("cego", CL, r#"then none else none                                                      @P "Normal Games""#), Changes),
        (r#"loses "label" = cards"#, m("cego", "  loses \"in the Leere games", "  loses CL \"in the Leere games"), Refused("`CL`: unknown card or card class")),
        (r#"loses "label" = cards"#, m(F, FO, format!("{FO}\n  loses \"x\" = count(tricks) > 2")), Refused("takes the cards that take no trick")),
        (r#"loses CARDS "label" [= condition]"#, m(F, FO, format!("{FO}\n  loses T1 \"the Petit takes no trick\"")), Changes),
        (r#"loses CARDS "label" [= condition]"#, m(F, FO, format!("{FO}\n  loses T1")), Refused("`loses` is written")),
        (r#"next-lead "label" = formula"#, m("cego-ministranten", "count(tricks) == 1) or", "count(tricks) == 5) or"), Changes),
        (r#"next-lead "label" = formula"#, m("cego-ministranten", "next-lead \"the bidder leads after the tricks of the empty cards kept\"", "next-lead"), Refused("is missing words")),
        (r#"next-lead "label" = formula"#, m("cego-ministranten", "next-lead \"the bidder leads after the tricks of the empty cards kept\"", "next-lead bidder"), Refused("`next-lead` is written")),
        (r#"next-lead "label" = formula"#, m(F, FO, format!("{FO}\n  next-lead \"x\" = 3")), Refused("not the constant")),
        (r#"next-lead "label" = formula"#, m(F, FO, format!("{FO}\n  next-lead \"x\" = if count(tricks) == 1 then nobody else none")), Refused("nobody")),
        (r#"lead-together N "label" highest SUITS = condition"#, m("cego", "highest C S H D", "highest D H S C"), Changes),
        (r#"lead-together N "label" highest SUITS = condition"#, m("cego", "highest C S H D = (contract.name == \"zwei-leere\" or", "highest C S H D = (contract.name == \"zwei-leere\" and"), Changes),
        (r#"lead-together N "label" highest SUITS = condition"#, m("cego", "highest C S H D", "highest C S H"), Refused("`highest` orders every suit of the pack")),
        (r#"lead-together N "label" highest SUITS = condition"#, m("cego", "highest C S H D", "highest C S H C"), Refused("is written twice")),
        (r#"lead-together N "label" highest SUITS = condition"#, m("cego", "highest C S H D", "highest C S H X"), Refused("`X` is not a suit")),
        (r#"lead-together N "label" highest SUITS = condition"#, m("cego", "lead-together 2", "lead-together 1"), Refused("leads from 2 to 8 cards at once")),
        (r#"lead-together N "label" highest SUITS = condition"#, m("cego", "highest C S H D", "C S H D"), Refused("`lead-together` is written")),
        (r#"lead-together N "label" highest SUITS = condition"#, m(F, FO, format!("{FO}\n  lead-together 2 \"x\" highest C S H D = 3")), Refused("takes a condition")),
        (
            r#"lead-together N "label" highest SUITS = condition"#,
            m("minchiate", "  fault follow \"revoke\"", "  lead-together 2 \"x\" highest C S H D = count(tricks) == 0\n  fault follow \"revoke\""),
            Refused("cannot be written with `lead-together`"),
        ),
        (r#"fault follow|trump|overtrump|beat "label" = amount"#, m("minchiate", "then 120 else 60", "then 120 else none"), Changes),
        (r#"fault follow|trump|overtrump|beat "label" = amount"#, m("minchiate", "then 120 else 60", "then 120 else 30"), Changes),
        (r#"fault follow|trump|overtrump|beat "label" = amount"#, m("minchiate", "fault follow \"revoke\"", "fault overtrump \"revoke\""), Refused("has no `must overtrump`")),
        (r#"fault follow|trump|overtrump|beat "label" = amount"#, m("minchiate", "fault follow \"revoke\"", "fault hold \"revoke\""), Refused("`hold` is not a trick obligation")),
        (r#"fault follow|trump|overtrump|beat "label" = amount"#, m("minchiate", "fault follow \"revoke\"", "fault revoke \"revoke\""), Refused("unknown obligation")),
        (r#"fault follow|trump|overtrump|beat "label" = amount"#, m("minchiate", "fault trump \"revoke\" = if option.revoke == \"two-resti\" then 120 else none", "fault trump \"revoke\" = \"sixty\""), Refused("takes an amount")),
        // An amount that is `none` in a game: no fault there, the card refused (minchiate's not trumping
        // under Minucci); made 0, it becomes a fault paid nothing.
        (r#"fault follow|trump|overtrump|beat "label" = amount"#, m("minchiate", "then 120 else none", "then 120 else 0"), Changes),
        (r#"fault follow|trump|overtrump|beat "label" = amount"#, m("minchiate", "fault trump \"revoke\" = if option.revoke == \"two-resti\" then 120 else none", "fault trump \"revoke\" = none"), Refused("takes an amount, a number")),
        (r#"fault OBLIGATION "label" gives-back CLASS = amount"#, m("minchiate", "then none else nobili", "then none else arie"), Changes),
        (r#"fault OBLIGATION "label" gives-back CLASS = amount"#, m("minchiate", "then none else nobili", "then none else none"), Changes),
        (r#"fault OBLIGATION "label" gives-back CLASS = amount"#, m("minchiate", "gives-back revoke_back", "gives-back nothing"), Refused("`nothing`: unknown card class")),
        // A `let` with a branch that is not cards would fail at the fault, in a game with that option.
        (r#"fault OBLIGATION "label" gives-back CLASS = amount"#, m("minchiate", "then none else nobili", "then none else 60"), Refused("`revoke_back` gives a number in some games, not cards")),
        (r#"fault OBLIGATION "label" gives-back CLASS = amount"#, m("minchiate", "gives-back revoke_back", "gives-back"), Refused("gives-back CLASS = amount` for the cards of CLASS")),
        // Dobbm's discard of the wrong size: the revoke's penalty, and the deal ends there.
        (r#"fault size "label" [by-side] ends-deal = amount"#, m("dobbm", "fault size \"the wrong number laid away\" ends-deal = option.stake / 2 * contract.factor", "fault size \"the wrong number laid away\" ends-deal = 7"), Changes),
        (r#"fault size "label" [by-side] ends-deal = amount"#, m("dobbm", "  fault size", "  # fault size"), Changes),
        (r#"fault size "label" [by-side] ends-deal = amount"#, m("dobbm", "fault size \"the wrong number laid away\" ends-deal", "fault size \"the wrong number laid away\""), Refused("`fault size` needs `ends-deal`")),
        (r#"fault size "label" [by-side] ends-deal = amount"#, m("dobbm", "fault size \"the wrong number laid away\" ends-deal", "fault forbid \"the wrong number laid away\" ends-deal"), Refused("a discard's fault is its size")),
        (r#"fault size "label" [by-side] ends-deal = amount"#, m("dobbm", "fault size \"the wrong number laid away\" ends-deal", "fault size ends-deal"), Refused("a discard's fault is written")),
        (r#"fault size "label" [by-side] ends-deal = amount"#, m("dobbm", "fault size \"the wrong number laid away\" ends-deal = option.stake / 2 * contract.factor", "fault size \"the wrong number laid away\" ends-deal = \"thirty\""), Refused("takes an amount, a number")),
        (r#"fault size "label" [by-side] ends-deal = amount"#, m("dobbm", "fault size \"the wrong number laid away\" ends-deal = option.stake / 2 * contract.factor", "fault size \"the wrong number laid away\" ends-deal = count(tricks)"), Refused("`tricks` is not known")),
        // Dobbm's revoke: paid by the offender's side, and the deal abandoned at the card.
        (r#"fault OBLIGATION "label" by-side = amount"#, m("dobbm", "fault follow \"revoke (verleugnen)\" by-side ends-deal", "fault follow \"revoke (verleugnen)\" ends-deal"), Changes),
        (r#"fault OBLIGATION "label" by-side = amount"#, m("dobbm", "fault trump \"revoke (verleugnen)\" by-side ends-deal", "fault trump \"revoke (verleugnen)\" ends-deal"), Changes),
        (r#"fault OBLIGATION "label" by-side = amount"#, m("dobbm", "fault follow \"revoke (verleugnen)\" by-side", "fault follow \"revoke (verleugnen)\" by-side by-side"), Refused("is written `fault follow \"label\" = amount`")),
        (r#"fault OBLIGATION "label" ends-deal = amount"#, m("dobbm", "fault follow \"revoke (verleugnen)\" by-side ends-deal", "fault follow \"revoke (verleugnen)\" by-side"), Changes),
        (r#"fault OBLIGATION "label" ends-deal = amount"#, m("dobbm", "fault trump \"revoke (verleugnen)\" by-side ends-deal", "fault trump \"revoke (verleugnen)\" by-side"), Changes),
        (r#"fault OBLIGATION "label" ends-deal = amount"#, m("dobbm", "fault follow \"revoke (verleugnen)\" by-side ends-deal", "fault follow \"revoke (verleugnen)\" by-side ends-game"), Refused("and `ends-deal` (the card ends the deal)")),
        (r#"fault OBLIGATION "label" ends-deal = amount"#, m("minchiate", "gives-back revoke_back", "gives-back revoke_back ends-deal"), Refused("cannot give anything back")),
        ("trumps-win = condition", m("galician-tarok", GT, "  trumps-win = 5"), Refused("takes a condition, yes or no")),
        // fool
        ("excuse", m(F, "  excuse                                             @FFT", "  # excuse"), Changes),
        ("excuse", m(F, "  excuse                                             @FFT", "  excuse = no @FFT"), Refused("`excuse` is a switch and takes no value")),
        (r#"led = "next-card-sets-suit" | "forbidden""#, m(F, r#"led = "next-card-sets-suit""#, r#"led = "forbidden""#), Changes),
        (r#"led = "next-card-sets-suit" | "forbidden""#, m(F, r#"led = "next-card-sets-suit""#, r#"led = "forbid""#), Refused(r#"`led` is one of "next-card-sets-suit", "forbidden", not "forbid""#)),
        (r#"keep = "keep" | "exchange""#, m(F, r#"keep = "exchange""#, r#"keep = "keep""#), Changes),
        (r#"last_trick = "keep" | "changes-side" | "to-winner""#, m(B, r#"last_trick = "keep""#, r#"last_trick = "to-winner""#), Changes),
        (r#"slam_wins [= "led" | "played"]"#, m(F, "slam_wins = if option.excuse_last_trick == \"to-winner\" then \"led\" else \"played\"", "slam_wins = \"led\""), Changes),
        (r#"slam_wins [= "led" | "played"]"#, m(F, "slam_wins = if option.excuse_last_trick == \"to-winner\" then \"led\" else \"played\"", "slam_wins"), Changes),
        ("deadline = N", m(F, "  excuse                                             @FFT", "  deadline = 3\n  excuse                                             @FFT"), Changes),
        ("deadline = N", m(F, "  excuse                                             @FFT", "  deadline = \"three\"\n  excuse                                             @FFT"), Refused("`deadline` is a number of tricks")),
        ("deadline = N", m(F, "  excuse                                             @FFT", "  deadline = 1.5\n  excuse                                             @FFT"), Refused("`deadline` is a number of tricks")),
        (r#"slam_wins [= "led" | "played"]"#, m(F, "slam_wins = if option.excuse_last_trick == \"to-winner\" then \"led\" else \"played\"", "slam_wins = \"won\""), Refused(r#"`slam_wins` is one of "led", "played", not "won""#)),
        (r#"shut_out = "keep" | "to-winner""#, m(B, r#"shut_out = "to-winner""#, r#"shut_out = "keep""#), Changes),
        // payments during play
        ("on play", m(M, r#"on play EX "Fool excused" = if last then 0 else 1"#, r#"on play EX "Fool excused" = if last then 0 else 2"#), Changes),
        ("on play", m(M, r#"on play EX "Fool excused" = if last then 0 else 1"#, r#"on play XX "Fool excused" = if last then 0 else 1"#), Refused("unknown card class `XX`")),
        ("on cut", m(M, r#"on cut tarots "cut card a Tarot" = 1"#, r#"on cut tarots "cut card a Tarot" = 3"#), Changes),
        // score
        ("let NAME = formula", m(F, "let margin = abs(points - target)", "let margin = abs(points - target) + 1"), Changes),
        // Read before it is written: worked out after what it reads.
        ("let NAME = formula", m(F, "let margin = abs(points - target)", "let margin = abs(points - target) + lift\n  let lift = 1"), Changes),
        ("let NAME = formula", m(F, "let target = [56, 51, 41, 36][bouts]", "let target = [56, 51, 41, 36][bouts] + (if made then 0 else 1)"), Refused("read one another in a circle")),
        ("let NAME = formula", m("basic", "  standing = points(player)", "  let mine = points(player) + 1\n  standing = mine"), Changes),
        // Failing where it is not read (a garde: 12 / 0): no error there, the other contracts pay it.
        ("let NAME = formula", probe("if contract.multiplier == 2 then 0 else share\n  let share = 12 / (contract.multiplier - 2)"), Changes),
        ("let NAME = formula", m("basic", "  standing = points(player)", "  let mine = points(player)\n  note \"ahead\" = mine > 20\n  standing = mine"), Refused("`mine` reads `player`, so it has a value for each player")),
        (r#"term NAME "label" = formula"#, m(F, r#"term poignee "poignée" = sign * declared(poignee)"#, r#"term poignee "poignée" = 2 * sign * declared(poignee)"#), Changes),
        (r#"pay PAYERS to PAYEES ["label"] = amount"#, m(F, "pay defence to attack = total", "pay defence to attack = 2 * total"), Changes),
        (r#"pay PAYERS to PAYEES ["label"] = amount"#, m(F, "pay defence to attack = total", "pay defence attack = total"), Refused("a payment is written `pay PAYERS to PAYEES")),
        (r#"note "text" = condition"#, m("fft-2p", "= all(p in players where points(p) < targets", "= yes or all(p in players where points(p) < targets"), Changes),
        ("standing = formula", m(B, "standing = points(player)", "standing = 2 * points(player)"), Changes),
        ("winner = condition", m(B, "winner = points(player) == top", "winner = points(player) != top"), Changes),
        ("score", m(F, "  pay defence to attack = total", "  pay defence to attack = total\n  standing = 1"), Refused("not both")),
        // 3.2 operators, 3.1 literals, if
        ("or", probe("if has(pile(attack), T21) or has(pile(attack), T1) then 1 else 0"), Changes),
        ("and", probe("if has(pile(attack), T21) and has(pile(attack), T1) then 1 else 0"), Changes),
        ("not", probe("if not has(pile(attack), T21) then 1 else 0"), Changes),
        ("==", probe("if bouts == 2 then 1 else 0"), Changes),
        ("!=", probe("if bouts != 2 then 1 else 0"), Changes),
        ("<", probe("if points < 40 then 1 else 0"), Changes),
        ("<=", probe("if points <= 40 then 1 else 0"), Changes),
        (">", probe("if points > 40 then 1 else 0"), Changes),
        (">=", probe("if points >= 40 then 1 else 0"), Changes),
        ("+", probe("bouts + 1"), Changes),
        ("-", probe("count(pile(attack) - trumps)"), Changes),
        ("*", probe("bouts * 3"), Changes),
        ("/", probe("points / 7"), Changes),
        // A divisor that is 0 whatever the game (once gave 0 in silence).
        ("/", probe("points / 0"), Refused("division by zero: this divisor is 0 whatever the game")),
        ("/", probe("points / (3 - 3)"), Refused("division by zero: this divisor is 0 whatever the game")),
        ("unary -", probe("-bouts"), Changes),
        ("x[i]", probe("[3, 5, 7, 9][bouts]"), Changes),
        ("if C then A else B", probe("if made then 3 else 1"), Changes),
        ("number", probe("4.5"), Changes),
        ("number", probe("99999999999999999999"), Refused("is too large")),
        ("number", probe("1.0000000001"), Refused("more than 9 decimals")),
        ("yes/no", probe("yes"), Changes),
        ("text", probe(r#"if "a" == "b" then 0 else 2"#), Changes),
        ("text", probe(r#""a" + 1"#), Refused("cannot be evaluated, whatever the game")),
        ("card", probe("count(pile(attack), KS + 1D)"), Changes),
        ("list", probe("count([1, 2, 3])"), Changes),
        ("@SOURCE", m(F, "  turns once                                         @FFT", "  turns once                                         @FFX"), Refused("unknown source `FFX`")),
        // 3.3 comprehensions, 3.4 card sets
        ("count(x in SET where COND)", probe("count(p in players where points(p) > 10)"), Changes),
        ("sum(x in SET : VALUE)", probe("sum(p in players : points(p)) / 9"), Changes),
        ("max(x in SET : VALUE)", probe("max(t in tricks : count(pile(t), trumps))"), Changes),
        ("min(x in SET : VALUE)", probe("min(p in players : points(p))"), Changes),
        ("all(x in SET where COND)", probe("if all(t in tricks where winner_side(t) == attack) then 1 else 2"), Changes),
        ("any(x in SET where COND)", probe("if any(c in pile(attack) where has(kings, c)) then 1 else 0"), Changes),
        ("any(x in SET where COND)", probe("any(p in players : points(p))"), Refused("takes a condition, not a value after `:`")),
        ("rank", probe("count(pile(attack), rank(Q))"), Changes),
        ("suit", probe("count(pile(attack), suit(H))"), Changes),
        ("both", probe("count(pile(attack), both(rank(Q), suit(H) + suit(S)))"), Changes),
        ("rank", probe("count(pile(attack), rank(Z))"), Refused("`Z` is not a rank")),
        // 3.5 functions
        ("count(x)", probe("count(pile(attack))"), Changes),
        ("count(a, b)", probe("count(pile(attack), kings)"), Changes),
        ("has(a, b)", probe("if has(pile(attack), KS) then 1 else 0"), Changes),
        ("abs", probe("abs(40 - points)"), Changes),
        ("floor", probe("floor(points / 7)"), Changes),
        ("ceil", probe("ceil(points / 7)"), Changes),
        ("pow(x, n)", probe("pow(2, floor(points / 20))"), Changes),
        ("table_size", probe("table_size"), Changes),
        ("table_size", m("fft-4p", "class kings = rank(K)", "class kings = rank(K) + (if table_size > 3 then KS else none)"), Refused("table_size")),
        ("pow(x, n)", probe("pow(2)"), Refused("pow")),
        ("round", probe("round(points / 7)"), Changes),
        ("min(a, ...)", probe("min(points, 30)"), Changes),
        ("max(a, ...)", probe("max(points, 50)"), Changes),
        ("contains(list, x)", probe("if contains([1, 2], bouts) then 1 else 0"), Changes),
        ("index(list, x)", probe("index([0, 1, 2], bouts)"), Changes),
        ("complete(set, g1, g2, ...)", probe("complete(pile(attack), KS, KH, KD)"), Changes),
        ("run(set, [c1, c2, ...])", probe("run(pile(attack), [KS, KH, KD])"), Changes),
        ("run(set, [c1, c2, ...], wild)", probe("run(pile(attack), [T21, T20, T19, T18, T17], T1 + EX)"), Changes),
        ("run(set, [c1, c2, ...], wild)", probe("run(pile(attack), [T21, T20], 3)"), Refused("the wild cards of `run` are a set of cards")),
        ("run(set, [c1, c2, ...], wild, passable)", probe("run(pile(attack), [T21, T20, T19, T18, T17], T1 + EX, T20 + T19)"), Changes),
        ("run(set, [c1, c2, ...], wild, passable)", probe("run(pile(attack), [T21, T20], EX, [T20])"), Refused("the steps `run` may pass over are a set of cards")),
        ("runs(set, [c1, c2, ...], min)", probe("sum(n in runs(pile(attack), [T21, T20, T19, T18, T17, T16, T15], 2) : n)"), Changes),
        ("runs(set, [c1, c2, ...], min)", probe("count(runs(pile(attack), [T21, 5], 2))"), Refused("each step of the order of `runs` is a set of cards")),
        ("in_runs(set, [c1, c2, ...], min)", probe("count(in_runs(pile(attack), [T1, T2, T3, T4, T5, T6], 2))"), Changes),
        ("in_runs(set, [c1, c2, ...], min)", probe("count(in_runs(pile(attack), [T1, T2, T3], 0))"), Refused("is a whole number from 1")),
        ("points(p)", probe("points(defence)"), Changes),
        ("points_of(cards)", probe("points_of(pile(taker))"), Changes),
        ("points_of(cards)", probe("points_of(taker)"), Changes),
        ("pile(x)", probe("count(pile(defence))"), Changes),
        ("taken(x)", probe("taken(defence)"), Changes),
        ("taken(x)", m("minchiate", "then taken(payee) - hand_size else 0", "then count(pile(payee)) - hand_size else 0"), Changes),
        ("hand_of(p)", probe("count(hand_of(taker), trumps)"), Changes),
        ("played(p)", probe("count(played(taker), trumps)"), Changes),
        ("withheld(p)", m("troggu", TK, r#"  keep EX "the Fool withheld to the last trick" = count(withheld(player)) > 1"#), Changes),
        ("withheld(p)", m("troggu", "class kings = rank(K)", "class kings = rank(K) + withheld(dealer)"), Refused("`withheld` looks at the game being played")),
        ("winner(t)", probe("if winner(last_trick) == taker then 1 else 0"), Changes),
        ("winner_side(t)", probe("if winner_side(last_trick) == attack then 1 else 0"), Changes),
        ("winning_card(t)", probe("count(winning_card(last_trick), trumps)"), Changes),
        ("leading_card(t)", probe("count(leading_card(last_trick), trumps)"), Changes),
        ("leading_card(t)", m(F, "  must overtrump                                     @FFT \"Le jeu de la carte\"", "  must overtrump                                     @FFT \"Le jeu de la carte\"\n  keep kings \"no king on a trump led\" = has(trumps, leading_card(trick))"), Changes),
        ("leading_card(t)", probe("count(leading_card(last_trick, tricks))"), Refused("`leading_card` takes 1 argument(s), not 2")),
        ("won(x)", probe("won(attack)"), Changes),
        ("side(p)", m("basic-partners", "standing = points(side(player))", "standing = points(player)"), Changes),
        ("suit_of(cards)", probe("count(pile(attack), suit_of(KS))"), Changes),
        ("declared(D[, who])", probe("declared(poignee)"), Changes),
        ("showed(D[, who])", probe("count(showed(poignee))"), Changes),
        ("showed(D[, who])", m("minchiate", "if won_by_player or has(showed(versicola, player), card)", "if won_by_player"), Changes),
        ("showed(D[, who])", probe("count(showed(poignees))"), Refused("unknown declaration `poignees`")),
        ("announced(D)", probe("if announced(poignee) then 1 else 0"), Changes),
        ("declarer(D)", probe("if announced(poignee) then (if declarer(poignee) == taker then 1 else 2) else 0"), Changes),
        ("declarer(D)", probe("declarer(poignees)"), Refused("unknown declaration `poignees`")),
        ("points(p)", m(F, "class kings = rank(K)", "class kings = rank(K)\nlet p = points(taker)"), Refused("looks at the game being played")),
        // 3.7 names
        ("players", probe("count(players)"), Changes),
        ("deal.dog", probe("deal.dog"), Changes),
        ("dealer", probe("if dealer == taker then 1 else 0"), Changes),
        ("first_hand", probe("if first_hand == taker then 1 else 0"), Changes),
        ("hand", m(F, "let poignee_sizes", "annul probe \"probe\" = count(hand, kings) >= 2\nlet poignee_sizes"), Changes),
        ("first_packet", m(F, "let poignee_sizes", "annul probe \"probe\" = count(first_packet, trumps) >= 2\nlet poignee_sizes"), Changes),
        ("shown", m(F, "value = poignee_values[index(poignee_sizes, count(shown))]", "value = poignee_values[0] + count(shown)"), Changes),
        ("value", m(F, "= contains(poignee_sizes, count(shown))", "= contains(poignee_sizes, count(shown)) and value > 20"), Changes),
        ("best_value", m(M, "value = count(shown) - 3                            @M \"Deal and Discard\"\n  require \"declarations are maximal: the most the hand allows of this kind\" = option.declarations == \"free\" or value == best_value", "value = count(shown) - 3\n  require \"not maximal\" = value < best_value"), Changes),
        ("player", m(B, "standing = points(player)", "standing = points(player) + count(hand_of(player), kings)"), Changes),
        ("payer", m(M, "paid-by = count(hand_of(payer), trull) == 0", "paid-by = count(hand_of(payer), trull) == 1"), Changes),
        ("payee", m(F, "pay defence to attack = total", "pay defence to attack = total + (if payee == taker then 1 else 0)"), Changes),
        ("total", m(F, "pay defence to attack = total", "pay defence to attack = total + 1"), Changes),
        ("discarded", m(M, "count(discarded, trumps + tarots) else 1", "count(discarded, trumps + tarots) + 1 else 1"), Changes),
        ("card", m(M, "or card == EX or won_by_player", "or card == T21 or won_by_player"), Changes),
        ("last", m(M, r#""Fool excused" = if last then 0 else 1"#, r#""Fool excused" = if not last then 0 else 1"#), Changes),
        ("won_by_player", m(M, "if (last and has(ultimo, card)) or not won_by_player then 0 else 1", "if (last and has(ultimo, card)) or won_by_player then 0 else 1"), Changes),
        ("taker", probe("if has(pile(taker), KS) then 1 else 0"), Changes),
        ("partner", m("fft-5p", "  let margin = ceil(abs(points - target))", "  let margin = ceil(abs(points - target)) + (if partner == taker then 1 else 0)"), Changes),
        ("attack", probe("count(attack)"), Changes),
        ("defence", probe("count(defence)"), Changes),
        ("called", m("fft-5p", "  let margin = ceil(abs(points - target))", "  let margin = ceil(abs(points - target)) + count(called, kings)"), Changes),
        ("tricks", probe("count(tricks)"), Changes),
        ("tricks", m(F, "  must overtrump                                     @FFT \"Le jeu de la carte\"", "  must overtrump                                     @FFT \"Le jeu de la carte\"\n  keep T21 \"the 21 not in the first three tricks\" = count(tricks) < 3"), Changes),
        ("trick", m(F, "  must overtrump                                     @FFT \"Le jeu de la carte\"", "  must overtrump                                     @FFT \"Le jeu de la carte\"\n  keep T21 \"the 21 not to a trick begun\" = count(trick) > 0"), Changes),
        ("trick", m(F, "  must overtrump                                     @FFT \"Le jeu de la carte\"", "  must overtrump                                     @FFT \"Le jeu de la carte\"\n  must play kings \"a king on the Excuse\" = has(trick, EX)"), Changes),
        ("trick", probe("count(trick)"), Refused("`trick` is not known in the score")),
        ("last_trick", probe("count(last_trick, trumps)"), Changes),
        ("hand", probe("count(hand)"), Refused("`hand` is not known in the score")),
        // the sections themselves
        ("pack", m(F, "pack {", "pak {"), Refused("unknown statement `pak`")),
        ("counting", m(F, "counting {", "counting 2 {"), Refused("`counting` takes at most 0 word(s)")),
        ("deal", m(F, "  dog = 6 ", "  dogs = 6 "), Refused("unknown deal statement `dogs`")),
        ("bidding", m(F, "  turns once", "  turn once"), Refused("unknown bidding statement `turn`")),
        ("call", m("fft-5p", "call {", "call = yes {"), Refused("`call` takes no value")),
        ("discard", m(F, "  taker = deal.dog ", "  taker = deal.dog { forbid = EX } "), Refused("`taker` takes no block")),
        ("play", m(F, "  must follow ", "  must folow "), Refused("`must` is followed by follow, trump, overtrump or beat")),
        ("fool", m(F, "  excuse     ", "  excuses   "), Refused("unknown fool statement `excuses`")),
        ("score", m(F, "  let made = points >= target", "  let made = points >= target\n  let made = points > target"), Refused("`let made` is written twice")),
    ]
}

impl Mutation {
    /// The same change, tried on `child`, a ruleset that extends the one changed.
    fn in_child(self, child: &'static str) -> Mutation {
        Mutation { compile_as: Some(child), ..self }
    }

    /// The same change, and `line` added at the end of the file.
    fn then_top(self, line: &str) -> Mutation {
        Mutation { append: format!("{}\n{line}\n", self.append), ..self }
    }
}

#[test]
fn every_construct_changed_changes_a_verdict_or_is_refused() {
    let rows = table();
    let played = rows.iter().map(|(_, m, _)| (m.compile_as.unwrap_or(m.ruleset), OnceLock::new())).collect();
    let games = Games { played, builtin: Registry::builtin().unwrap() };
    let checked: Vec<Result<usize, String>> = rows.par_iter().map(|(construct, mutation, expected)| check(construct, mutation, expected, &games)).collect();
    let (mut changed, mut refused, mut failures) = (0, 0, vec![]);
    for c in checked {
        match c {
            Ok(0) => refused += 1,
            Ok(_) => changed += 1,
            Err(e) => failures.push(e),
        }
    }
    println!("{} rows: {changed} changed a verdict or what follows what, {refused} were refused", rows.len());
    assert!(failures.is_empty(), "{} of {} rows failed:\n\n{}", failures.len(), rows.len(), failures.join("\n\n"));
}

/// The constructs the reference lists: the first code of each row of its tables in sections 2 and 3,
/// and the statements, operators and forms its prose describes.
fn reference_constructs() -> BTreeSet<String> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../grammar/REFERENCE.md")).unwrap();
    let mut out = BTreeSet::new();
    let mut section = "";
    for line in text.lines() {
        if line.starts_with("## ") {
            section = if line.starts_with("## 2.") || line.starts_with("## 3.") { "in" } else { "" };
        }
        if section.is_empty() || !line.starts_with("| `") {
            continue;
        }
        let first = line[3..].split('`').next().unwrap_or("").replace("\\|", "|");
        out.insert(first);
    }
    // Described in prose or in one row with others.
    for extra in [
        "players",
        "sides",
        "sit-out dealer",
        "sit-out opposite",
        "sit-out ... scores-as defence",
        "untouchable",
        "annul",
        "on play",
        "on cut",
        "declaration",
        "pack",
        "counting",
        "deal",
        "bidding",
        "call",
        "discard",
        "talon",
        "buy",
        "steal",
        "sit-out-by-choice",
        "play",
        "fool",
        "score",
        "@SOURCE",
        "or",
        "and",
        "not",
        "==",
        "!=",
        "<",
        "<=",
        ">",
        ">=",
        "+",
        "-",
        "*",
        "/",
        "unary -",
        "x[i]",
        "if C then A else B",
        "count(x in SET where COND)",
        "sum(x in SET : VALUE)",
        "max(x in SET : VALUE)",
        "min(x in SET : VALUE)",
        "all(x in SET where COND)",
        "any(x in SET where COND)",
        "rank",
        "suit",
        "both",
        "floor",
        "ceil",
        "round",
        "winner_side(t)",
        "winning_card(t)",
        "first_hand",
        "value",
        "total",
        "last",
        "won_by_player",
        "partner",
        "attack",
        "defence",
        "last_trick",
        "number",
        "yes/no",
        "text",
        "card",
        "list",
        "max(a, ...)",
    ] {
        out.insert(extra.to_string());
    }
    out
}

#[test]
fn every_construct_of_the_reference_has_a_row() {
    let rows: BTreeSet<String> = table().into_iter().map(|(c, ..)| c.to_string()).collect();
    let wanted = reference_constructs();
    let missing: Vec<&String> = wanted.iter().filter(|c| !rows.contains(*c)).collect();
    assert!(missing.is_empty(), "constructs of grammar/REFERENCE.md with no row in the table: {missing:?}");
    let unknown: Vec<&String> = rows.iter().filter(|c| !wanted.contains(*c)).collect();
    assert!(unknown.is_empty(), "rows naming no construct of the reference: {unknown:?}");
    assert!(wanted.len() > 120, "{}", wanted.len());
}
