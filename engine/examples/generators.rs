//! The hand-steered fixture generators: one module per game, each writing the fixtures of its game
//! that the simulator's command line cannot give (an option, a corner of the score, a source's
//! worked example), and `worked_examples`, the sources' scoring examples under `fixtures/worked/`.
//! They are one program so that the engine is linked once for all of them (`make_fixtures`, which
//! writes every ruleset's simulated fixtures, is its own). Each runs by its name, with its mode:
//!
//!     cargo run -p tarot-engine --example generators -- cego_fixtures
//!     cargo run -p tarot-engine --example generators -- cego3_fixtures
//!     cargo run -p tarot-engine --example generators -- cego_local_fixtures
//!     cargo run -p tarot-engine --example generators -- cego_twos_fixtures
//!     cargo run -p tarot-engine --example generators -- cego_braeunlingen_fixtures
//!     cargo run -p tarot-engine --example generators -- cego_pflicht_rauber_fixtures
//!     cargo run -p tarot-engine --example generators -- galician_fixtures trischaken
//!     cargo run -p tarot-engine --example generators -- --help
//!
//! `scripts/check_generators.sh` runs each in each of its modes and checks that they reproduce the
//! stored files.

use clap::{Parser, Subcommand};

mod common;

mod cego3_fixtures;
mod cego_braeunlingen_fixtures;
mod cego_fixtures;
mod cego_local_fixtures;
mod cego_pflicht_rauber_fixtures;
mod cego_twos_fixtures;
mod dobbm_fixtures;
mod dreierles_fixtures;
mod droggn_fixtures;
mod galician_fixtures;
mod grosstarock_fixtures;
mod koenigrufen_fixtures;
mod minchiate_fixtures;
mod point_tarock_fixtures;
mod tapper_fixtures;
mod tarocchini_fixtures;
mod troggu_fixtures;
mod worked_examples;

#[derive(Parser)]
#[command(about = "Writes the hand-steered fixtures of one game (under fixtures/, or TAROT_FIXTURES)")]
struct Args {
    #[command(subcommand)]
    generator: Generator,
}

/// The generators, by their modules' names (which the fixtures' descriptions cite).
#[derive(Subcommand)]
#[command(rename_all = "snake_case")]
enum Generator {
    /// Cego: each contract played out, the Räuber, the corners of the score.
    CegoFixtures,
    /// Dobbm: the Retours, the Solo, a draw at 60, a declarer shut out, the small stakes rounded.
    DobbmFixtures,
    /// Cego for three: each contract, a deal all passed, the skinned Solo claimed, the rules changed.
    #[command(name = "cego3_fixtures")]
    Cego3Fixtures,
    /// Cego's local versions (the Ministranten's, Oberwolfach's, Ichenheim's): each contract, P's examples, the auction's rules broken.
    CegoLocalFixtures,
    /// Cego counted in twos: games at the edges of pagat.com's table of base values.
    CegoTwosFixtures,
    /// Cego at the Bräunlingen tournament: the difference rounded up to 5 before the factor, the special games, the Solo bidder out.
    CegoBraeunlingenFixtures,
    /// Cego at the Gasthaus zum Löwen: the Pflicht-Räuber's payments, the game after it at ten times the stake, a bid in the round.
    CegoPflichtRauberFixtures,
    /// Dreierles: the source's worked example, each contract, the knocks, the Räuber's restrictions.
    DreierlesFixtures,
    /// Droggn: the Gstieß as the top trump.
    DroggnFixtures,
    /// Galician Tarok: each contract won and lost, the Ultimo, the bids forbidden.
    GalicianFixtures {
        /// `trischaken` (Trischaken and the Suit-Solo), `threes` (the count in threes), `priority`
        /// (the hold by seniority), or the name of one case of the first list.
        mode: Option<String>,
    },
    /// Grosstarock: the games arranged or picked to show its rules.
    GrosstarockFixtures {
        /// `1754` (the Leipzig 1754 rules) or `1754-2` (their declarations).
        mode: Option<String>,
    },
    /// Königrufen: each contract made and lost, and the corners of the score.
    KoenigrufenFixtures,
    /// Minchiate: the two resti's revoke and the versicole shown.
    MinchiateFixtures,
    /// Point Tarock: the source's example, each contract with an announcement, a Kontra.
    PointTarockFixtures,
    /// Tapp Tarock 1821: a forehand's Tapper and the Solo after it.
    TapperFixtures,
    /// Tarocchini: the options of another era.
    TarocchiniFixtures,
    /// Troggu: the Bättler withheld.
    TrogguFixtures,
    /// The sources' worked scoring examples (fixtures/worked/); best run with `--release`.
    WorkedExamples {
        /// Only the examples of these names (all when none is given).
        names: Vec<String>,
    },
}

fn main() {
    match Args::parse().generator {
        Generator::CegoFixtures => cego_fixtures::main(),
        Generator::DobbmFixtures => dobbm_fixtures::main(),
        Generator::Cego3Fixtures => cego3_fixtures::main(),
        Generator::CegoLocalFixtures => cego_local_fixtures::main(),
        Generator::CegoTwosFixtures => cego_twos_fixtures::main(),
        Generator::CegoBraeunlingenFixtures => cego_braeunlingen_fixtures::main(),
        Generator::CegoPflichtRauberFixtures => cego_pflicht_rauber_fixtures::main(),
        Generator::DreierlesFixtures => dreierles_fixtures::main(),
        Generator::DroggnFixtures => droggn_fixtures::main(),
        Generator::GalicianFixtures { mode } => galician_fixtures::main(mode.as_deref()),
        Generator::GrosstarockFixtures { mode } => grosstarock_fixtures::main(mode.as_deref()),
        Generator::KoenigrufenFixtures => koenigrufen_fixtures::main(),
        Generator::MinchiateFixtures => minchiate_fixtures::main(),
        Generator::PointTarockFixtures => point_tarock_fixtures::main(),
        Generator::TapperFixtures => tapper_fixtures::main(),
        Generator::TarocchiniFixtures => tarocchini_fixtures::main(),
        Generator::TrogguFixtures => troggu_fixtures::main(),
        Generator::WorkedExamples { names } => worked_examples::main(&names),
    }
}
