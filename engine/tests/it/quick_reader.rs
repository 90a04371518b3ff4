//! The quick reader against serde_json: whatever the quick reader reads, serde_json reads the same
//! way; and it reads the fixtures, so the fast path is the one taken.

use std::path::Path;

use rand::{Rng, SeedableRng};
use tarot_engine::read_quick;
use tarot_engine::GameRecord;

fn fixtures() -> Vec<(String, Vec<u8>)> {
    let mut out = vec![];
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                out.push((path.display().to_string(), std::fs::read(&path).unwrap()));
            }
        }
    }
    out.sort();
    assert!(out.len() > 100, "the fixtures are missing");
    out
}

/// The quick reader's answer, checked against serde_json's; whether it read the text.
fn agrees(what: &str, bytes: &[u8]) -> bool {
    let Some(quick) = read_quick(bytes) else { return false };
    match serde_json::from_slice::<GameRecord>(bytes) {
        Ok(slow) => assert_eq!(quick, slow, "{what}: the readers disagree on\n{}", String::from_utf8_lossy(bytes)),
        Err(e) => panic!("{what}: the quick reader accepts what serde_json refuses ({e}):\n{}", String::from_utf8_lossy(bytes)),
    }
    true
}

#[test]
fn it_reads_every_fixture_serde_json_reads_and_the_same_way() {
    let (mut read, mut readable) = (0, 0);
    for (path, bytes) in fixtures() {
        let Ok(record) = serde_json::from_slice::<GameRecord>(&bytes) else {
            agrees(&path, &bytes);
            continue;
        };
        // Escaped strings are left to serde_json.
        let common = !bytes.contains(&b'\\');
        readable += usize::from(common);
        read += usize::from(agrees(&path, &bytes));
        assert!(!common || read_quick(&bytes).is_some(), "{path}: the quick reader gives up on a common game");
        // The same game written compactly, and written again with indentation.
        for again in [serde_json::to_vec(&record).unwrap(), serde_json::to_vec_pretty(&record).unwrap()] {
            assert!(agrees(&path, &again) || !common, "{path}: rewritten, the quick reader gives up");
        }
    }
    assert!(read > 500 && read == readable, "read {read} of {readable} common fixtures");
}

#[test]
fn broken_copies_are_read_the_same_way_or_left_to_serde_json() {
    // Edits that make or break JSON: structure, white space, escapes, control and non-ASCII bytes.
    const BYTES: &[u8] = b"{}[]\",: \n\t\r\\0123456789-.eEtruefalsn\x01\x1f\x7f\xc3\xa9\xff";
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let all = fixtures();
    let (mut tried, mut read) = (0, 0);
    for (path, original) in all.iter().step_by(3) {
        // Compact copies are shorter to check; mutations of both forms.
        let compact = serde_json::from_slice::<serde_json::Value>(original).map(|v| serde_json::to_vec(&v).unwrap()).unwrap_or_else(|_| original.clone());
        for base in [original, &compact] {
            for _ in 0..12 {
                let mut b = base.clone();
                for _ in 0..rng.gen_range(1..=3) {
                    let at = rng.gen_range(0..=b.len());
                    match rng.gen_range(0..6) {
                        0 if at < b.len() => {
                            b.remove(at);
                        }
                        1 => b.insert(at, BYTES[rng.gen_range(0..BYTES.len())]),
                        2 if at < b.len() => b[at] = BYTES[rng.gen_range(0..BYTES.len())],
                        3 => {
                            // A span repeated: a field or an event twice.
                            let end = (at + rng.gen_range(1..40)).min(b.len());
                            let span = b[at..end].to_vec();
                            b.splice(end..end, span);
                        }
                        4 => {
                            let end = (at + rng.gen_range(1..40)).min(b.len());
                            b.drain(at..end);
                        }
                        _ => b.truncate(at),
                    }
                }
                tried += 1;
                read += usize::from(agrees(path, &b));
            }
        }
    }
    // Many edits keep a readable game (white space, a repeated card): the test reaches both sides.
    assert!(read > tried / 50 && read < tried, "read {read} of {tried}");
}

#[test]
fn what_it_leaves_to_serde_json() {
    let game = |events: &str| format!(r#"{{"ruleset":"fft-4p","players":["A","B","C","D"],"dealer":"A","events":[{events}]}}"#);
    let play = r#"{"type":"play","player":"A","card":"T1"}"#;
    assert!(agrees("plain", game(play).as_bytes()));
    for (why, text) in [
        ("an escape", game(r#"{"type":"play","player":"\u0041","card":"T1"}"#)),
        ("a field twice", game(r#"{"type":"play","player":"A","player":"A","card":"T1"}"#)),
        ("a field the type has not", game(r#"{"type":"play","player":"A","card":"T1","bid":"garde"}"#)),
        ("a play's card written as a bid", game(r#"{"type":"play","player":"A","bid":"T1"}"#)),
        ("a bid written as a card", game(r#"{"type":"bid","player":"A","card":"garde"}"#)),
        ("an unknown field", game(r#"{"type":"play","player":"A","card":"T1","when":"now"}"#)),
        ("a missing field", game(r#"{"type":"play","player":"A"}"#)),
        ("a trailing comma", game(&format!("{play},"))),
        ("a number for a card", game(r#"{"type":"play","player":"A","card":1}"#)),
        ("a packet's `to` null", game(r#"{"type":"deal","hands":{},"packets":[{"to":null,"cards":[]}]}"#)),
        ("a byte-order mark", format!("\u{feff}{}", game(play))),
        ("text after the game", format!("{} x", game(play))),
        ("a fraction in the options", game(play).replacen('{', r#"{"options":{"x":1.5},"#, 1)),
        ("minus zero in the options", game(play).replacen('{', r#"{"options":{"x":-0},"#, 1)),
        ("a leading zero in the options", game(play).replacen('{', r#"{"options":{"x":01},"#, 1)),
        ("an option twice", game(play).replacen('{', r#"{"options":{"x":1,"x":2},"#, 1)),
        ("a hand twice", game(r#"{"type":"deal","hands":{"A":["T1"],"A":["T2"]}}"#)),
        ("a tab in a string", game(play).replace("\"A\",", "\"A\t\",")),
    ] {
        assert!(read_quick(text.as_bytes()).is_none(), "{why}: the quick reader should give up on\n{text}");
    }
    // What it does read besides plays: options of each kind, a null description, every event type.
    let full = r#"{"ruleset":"fft-4p","options":{"a":"x","b":true,"c":false,"d":-12,"e":0},"players":["Ann","Bé"],"dealer":"Ann","description":null,
        "events":[{"type":"deal","hands":{"Ann":["T1"],"Bé":[]},"dog":["EX"],"cut":"KS","piles":{"Ann":[["2S","3S"]]},"packets":[{"to":"Ann","cards":["T1"]},{"cards":["EX"]}]},{"type":"bid","player":"Ann","bid":"garde"},
        {"cards":["1S"],"type":"discard","player":"Ann"},{"type":"declare","player":"Bé","declaration":"poignee","cards":[]},
        {"type":"declare","player":"Bé","declaration":"chelem"},{"type":"call","player":"Ann","card":"KH"}]}"#;
    assert!(agrees("every field", full.as_bytes()));
}

/// The reader finds its tokens 64 bytes at a time: every token, string and value is read the same
/// wherever it falls across a block's end.
#[test]
fn a_game_reads_the_same_at_every_offset_in_a_block() {
    let full = r#"{"ruleset":"fft-4p","options":{"a":"x","b":true,"c":false,"d":-12,"e":0 ,"longer_than_a_block_of_sixty_four_bytes_is_this_option_name":1},
        "players":["Ann","Bé"],"dealer":"Ann","description":null
        ,"events":[{"type":"deal","hands":{"Ann":["T1"],"Bé":[]},"dog":["EX"]},
        {"type":"bid","player":"Ann","bid":"garde"},{"type":"play","player":"Ann","card":"T1"}]}"#;
    for shift in 0..=130 {
        let pad = " ".repeat(shift);
        assert!(agrees(&format!("shifted {shift}"), format!("{pad}{full}").as_bytes()), "shifted by {shift}, the quick reader gives up");
        for (why, broken) in [("an escape", full.replacen("garde", r"gar\u0064e", 1)), ("a string left open", full.trim_end_matches(['}', ']']).to_string() + "\"T1")] {
            assert!(read_quick(format!("{pad}{broken}").as_bytes()).is_none(), "{why}, shifted by {shift}: the quick reader should give up");
        }
    }
}

#[test]
fn a_field_given_as_null_counts_as_absent() {
    let game = |event: &str| format!(r#"{{"ruleset":"fft-4p","players":["A","B","C","D"],"dealer":"A","events":[{event}]}}"#);
    // Left to serde_json, which reads the null as nothing.
    let text = game(r#"{"type":"deal","hands":{"A":["T1"]},"cut":null,"dog":null,"player":null}"#);
    assert!(read_quick(text.as_bytes()).is_none());
    let rec: GameRecord = serde_json::from_str(&text).unwrap();
    assert!(matches!(&rec.events[0], tarot_engine::Event::Deal { cut: None, dog, .. } if dog.is_empty()));
    let e = serde_json::from_str::<GameRecord>(&game(r#"{"type":"play","player":null,"card":"T1"}"#)).unwrap_err();
    assert!(e.to_string().contains("a `play` event needs `player`"), "{e}");
    let e = serde_json::from_str::<GameRecord>(&game(r#"{"type":"play","player":"A","player":null,"card":"T1"}"#)).unwrap_err();
    assert!(e.to_string().contains("duplicate field `player`"), "{e}");
}

/// Strings are read a block of 16 bytes at a time, white space before them included: every length
/// across a block's end, in every place a string has, with quotes and other strings right after.
#[test]
fn strings_of_every_length_read_the_same() {
    for len in 0..=40 {
        let name: String = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdef".chars().take(len).collect();
        let card = "T1".repeat(len / 2 + 1);
        let game = format!(
            r#"{{"ruleset":"{name}","options":{{"{name}":"{name}"}},"players":["{name}","B"],"dealer":"{name}","description":"{name}",
            "events":[{{"type":"deal","hands":{{"{name}":["{card}","{name}"],"B":[]}}}},{{"type":"bid","player":"{name}","bid":"{name}"}},
            {{"type":"play","player":"{name}","card":"{card}"}},{{"type":"play","player":"B","card":"{name}"}},{{"type":"play","player":"{name}","card":"{card}"}}]}}"#
        );
        let record: GameRecord = serde_json::from_str(&game).unwrap();
        for text in [game.clone(), serde_json::to_string(&record).unwrap(), serde_json::to_string_pretty(&record).unwrap()] {
            for pad in ["", " ", "\n", "\n       "] {
                let text = format!("{pad}{text}");
                assert!(agrees(&format!("a string of {len} bytes"), text.as_bytes()), "a string of {len} bytes: the quick reader gives up on\n{text}");
            }
        }
    }
}

/// Moves are compared whole with the layout of the last one read key by key: moves written
/// otherwise, or almost alike, are read the same as serde_json reads them, or left to it.
#[test]
fn moves_laid_out_otherwise_read_the_same() {
    let game = |events: &[&str]| format!("{{\"ruleset\":\"fft-4p\",\"players\":[\"A\",\"B\",\"C\",\"D\"],\"dealer\":\"A\",\"events\":[\n  {}\n]}}", events.join(",\n  "));
    let play = r#"{"type": "play", "player": "A", "card": "T1"}"#;
    let read = [
        ("compact", r#"{"type":"play","player":"B","card":"T2"}"#),
        ("wider", r#"{ "type" : "play" , "player" : "C" , "card" : "T3" }"#),
        ("on lines", "{\n    \"type\": \"play\",\n    \"player\": \"D\",\n    \"card\": \"T4\"\n  }"),
        ("with tabs and carriage returns", "{\r\n\t\"type\":\t\"play\",\r\n\t\"player\": \"A\",\r\n\t\"card\": \"T5\"\r\n}"),
        ("in another order", r#"{"player": "B", "type": "play", "card": "T6"}"#),
        ("a bid", r#"{"type": "bid", "player": "C", "bid": "garde"}"#),
        ("a call", r#"{"type": "call", "player": "D", "card": "KH"}"#),
        ("a longer card", r#"{"type": "play", "player": "A", "card": "a card with a long name"}"#),
        ("a name not in ASCII", r#"{"type": "play", "player": "Bé", "card": "T7"}"#),
        ("a declaration", r#"{"type": "declare", "player": "C", "declaration": "poignee", "cards": ["T1"]}"#),
    ];
    for (why, other) in read {
        for events in [[play, play, other, play, play], [play, other, other, play, other], [other, play, other, other, play]] {
            let text = game(&events);
            assert!(agrees(why, text.as_bytes()), "{why}: the quick reader gives up on\n{text}");
        }
    }
    let left = [
        ("a card twice", r#"{"type": "play", "player": "A", "card": "T1", "card": "T2"}"#),
        ("a field set to null", r#"{"type": "play", "player": "A", "card": "T1", "bid": null}"#),
        ("a field the type has not", r#"{"type": "play", "player": "A", "card": "T1", "bid": "garde"}"#),
        ("a number for a card", r#"{"type": "play", "player": "A", "card": 1}"#),
        ("an escape", r#"{"type": "play", "player": "\u0041", "card": "T1"}"#),
        ("a tab in a card", "{\"type\": \"play\", \"player\": \"A\", \"card\": \"T\t1\"}"),
        ("a bid written as a card", r#"{"type": "bid", "player": "A", "card": "garde"}"#),
        ("a type unknown", r#"{"type": "pass", "player": "A", "card": "T1"}"#),
        ("a brace left open", r#"{"type": "play", "player": "A", "card": "T1""#),
    ];
    for (why, other) in left {
        for events in [[play, play, other, play], [play, play, play, other]] {
            let text = game(&events);
            assert!(read_quick(text.as_bytes()).is_none(), "{why}: the quick reader should give up on\n{text}");
        }
    }
}

/// White space of every kind JSON has, where a program might write it: every fourth fixture with its
/// lines ended by CR LF and indented with tabs, and with spaces before its colons and commas.
#[test]
fn fixtures_written_with_other_white_space_read_the_same() {
    for (path, bytes) in fixtures().iter().step_by(4) {
        let Ok(record) = serde_json::from_slice::<GameRecord>(bytes) else { continue };
        let common = !bytes.contains(&b'\\');
        let pretty = serde_json::to_string_pretty(&record).unwrap();
        for text in [pretty.replace('\n', "\r\n").replace("  ", "\t"), pretty.replace("\": ", "\" : ").replace(",\n", " ,\n")] {
            assert!(agrees(path, text.as_bytes()) || !common, "{path}: rewritten, the quick reader gives up on\n{text}");
        }
    }
}

/// The verdict's own JSON writer escapes texts as serde_json does.
mod json_strings {

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        // Every ASCII byte at every place of texts of every length up to three words, so that it is
        // found in a whole word, in the last (overlapping) word, in either half or in the bytes of
        // a short text.
        let mut texts: Vec<String> = (0..=0x7fu8)
            .flat_map(|b| (1..=24).flat_map(move |len| (0..len).map(move |at| (0..len).map(|i| if i == at { b as char } else { (b'a' + i as u8) as char }).collect())))
            .collect();
        texts.extend(
            ["", "\"", "\\\\", "é \"Le calcul\" ü\u{1f}", "\u{7f}\u{80}\u{2028}", "FFT \"La Poignée (10, 13 ou 15 Atouts)\"", "ééééé\"ééééé\\é\u{1}", "\"\"\"\"\"\"\"\"\"\""]
                .map(String::from),
        );
        for text in texts {
            assert_eq!(tarot_engine::testing::json_string(&text), serde_json::to_string(&text).unwrap(), "{text:?}");
        }
    }
}

/// Players' names are told apart by the key the replay reads them by.
mod name_keys {
    use tarot_engine::testing::name_key;

    #[test]
    fn names_have_the_same_key_exactly_when_they_are_the_same() {
        let names: Vec<Vec<u8>> = (1..=7usize)
            .flat_map(|len| (0..=len).map(move |at| (0..len).map(|i| if i == at { b'Z' } else { b'a' + i as u8 }).collect()))
            .chain([b"abcdabcd".to_vec(), b"abcd".to_vec(), b"aaaa".to_vec(), b"aaaaa".to_vec()])
            .collect();
        for a in &names {
            for b in &names {
                match (name_key(a), name_key(b)) {
                    (Some(x), Some(y)) => assert_eq!(x == y, a == b, "{:?} {:?}", String::from_utf8_lossy(a), String::from_utf8_lossy(b)),
                    (x, y) => assert!(a.len() >= 8 && x.is_none() || b.len() >= 8 && y.is_none()),
                }
            }
        }
    }
}
