//! The engine's integration tests, built as one test binary, `it`, rather than one a file: each file
//! of this folder is a module of it, and `common/` holds what they share.
//!
//! One file's tests are run with its module as the filter (a test's name is `<module>::<function>`):
//! `cargo test -p tarot-engine --test it fixtures::`.
//! A file grown long is split by subject into a folder of its name (`variants.rs` and `variants/`,
//! `cego_scorer.rs` and `cego_scorer/`): its tests keep the prefix (`variants::` runs them all,
//! `variants::deal::` one part).
//!
//! Adding a test file `x.rs`: put it in this folder (`engine/tests/it/`) and add one line, `mod x;`,
//! to the list below (a file left directly in `engine/tests/` is built as a test binary of its own).
//! In it:
//! - the shared helpers are `use crate::common;` (`common::rules` and `common::test_rules` for a test
//!   rule file, `common::compile_error` for what the compiler says of a text, `common::registry_with`);
//! - a second scorer written from a game's sources goes in `common/<game>.rs`, declared by one line
//!   `pub mod <game>;` in `common/mod.rs`, and is used with `use crate::common::<game>;` (where a
//!   test file of its own would have `#[path = "common/<game>.rs"] mod <game>;`);
//! - files are read from `env!("CARGO_MANIFEST_DIR")`, the `engine/` folder: the test rule files
//!   from `tests/rules/`, the fixtures from `../fixtures/`;
//! - insta's snapshots are in `snapshots/` here, named `it__<module>__<name>.snap`;
//! - proptest's regressions are in `engine/tests/proptest-regressions/<module>.txt`.
//!
//! All the tests run in one process, on parallel threads: a test changes nothing the others see
//! (environment variables, the current directory, a file or a port of fixed name); it passes what
//! it needs explicitly, and names its scratch files after itself and the process id.

mod common;

mod after_deal;
mod all_pass_named;
mod architecture;
mod auction;
mod beat;
mod buy;
mod card_codes;
mod cards;
mod cego_scorer;
mod combinations;
mod compare;
mod compulsory;
mod contract_require;
mod declarations;
mod declare_after_play;
mod declare_ends_deal;
mod declare_from_dealer;
mod declare_in_turn;
mod declare_laid_away;
mod declare_pay;
mod describe;
mod discard_forbid_option;
mod dobbm_scorer;
mod dog_name;
mod dreierles_scorer;
mod droggn_scorer;
mod every_construct;
mod exact;
mod fault;
mod fft_scorer;
mod fixtures;
mod forced_cards;
mod forced_instead;
mod formula_params;
mod fuzz;
mod galician_scorer;
mod grosstarock_scorer;
mod instead;
mod koenigrufen_scorer;
mod language;
mod lazy_let;
mod lead_formula;
mod lead_together;
mod let_order;
mod marolles_payments;
mod match_last_dealer;
mod matches;
mod minchiate_scorer;
mod mixed_table;
mod next_agrees;
mod next_dealer;
mod next_lead;
mod numbers;
mod opening_bidder_from;
mod opening_bidder_if;
mod pack;
mod packet_orders;
mod play_ends;
mod point_tarock_scorer;
mod pots;
mod properties;
mod quick_reader;
mod raise;
mod record_fuzz;
mod scarto_scorer;
mod settings;
mod sit_out;
mod sit_out_scores;
mod standing;
mod stats;
mod steal;
mod take_packets;
mod talon;
mod talon_rest;
mod talon_split;
mod tapp_tarock;
mod tapp_tarock_scorer;
mod tarocchini;
mod tarocchini_scorer;
mod tarotclub;
mod throw_in;
mod trick_in_play;
mod troccas;
mod troccas_scorer;
mod troggu_scorer;
mod variants;
mod wins_with;
mod withhold;
mod worked_examples;
