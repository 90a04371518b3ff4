//! The names a formula may use, and where: the contexts a formula is compiled in, the engine's facts
//! and functions, and which context sees which (`fact_allowed`, `ctx_words`).

use super::*;

/// The contexts a formula can be written in; each sees different facts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ctx {
    /// Fixed for a game: options, players, constants (deal sizes, settings).
    Setup,
    /// Cards only, folded at compile time.
    Class,
    Hand,
    Declaration,
    PaidBy,
    Discard,
    Lead,
    Trigger,
    Score,
    Pay,
    PerPlayer,
    /// Once the taker has called a card.
    Called,
    /// A setting that applies after the auction (the discard's sizes, `callable-levels`, `must ... =
    /// condition`, the fool's settings): a setup formula that may also read the contract.
    AfterAuction,
    /// A declaration's `allowed`: after the auction, so the contract is known.
    Allowed,
    /// A declaration's `pay`: what `Allowed` sees, the cards shown and the value, and the pair paying
    /// and paid (`payer`, `payee`).
    DeclarationPay,
    /// The condition of `must lead|play` and `keep`, read at a player's turn in play: what `Allowed`
    /// sees, and the play so far (`tricks`, the trick in play `trick`).
    Turn,
    /// The deal's `require`: once the cards are dealt (dealer, first_hand, players, options, `carried`).
    Dealt,
    /// The talon's `rest`, read for each packet as it goes once the sides are known: what
    /// `AfterAuction` sees, and the packet (`packet`), the card called and the sides.
    Packet,
    /// A payment made when everyone passes (`all-pass pay`): the pair paying and paid (`payer`,
    /// `payee`), the dealer, first hand, the players and the options; no contract, no sides.
    AllPass,
}

pub(super) fn fact_allowed(f: Fact, ctx: Ctx) -> bool {
    use Fact::*;
    match f {
        Players | Table => ctx != Ctx::Class,
        DogSize => !matches!(ctx, Ctx::Class),
        Dealer | FirstHand => !matches!(ctx, Ctx::Class | Ctx::Setup | Ctx::AfterAuction),
        Hand | FirstPacket => matches!(ctx, Ctx::Hand | Ctx::Declaration | Ctx::Allowed | Ctx::Turn) || f == Hand && matches!(ctx, Ctx::Discard | Ctx::DeclarationPay),
        Shown | DeclValue => matches!(ctx, Ctx::Declaration | Ctx::DeclarationPay),
        BestValue => ctx == Ctx::Declaration,
        Payer => matches!(ctx, Ctx::PaidBy | Ctx::Pay | Ctx::DeclarationPay | Ctx::AllPass),
        Discarded => ctx == Ctx::Discard,
        Dog => matches!(ctx, Ctx::Discard | Ctx::Allowed | Ctx::DeclarationPay),
        Packet => ctx == Ctx::Packet,
        Card | Last | WonByPlayer => ctx == Ctx::Trigger,
        Player => matches!(ctx, Ctx::Trigger | Ctx::PerPlayer | Ctx::Declaration | Ctx::Discard | Ctx::Allowed | Ctx::Turn | Ctx::Hand | Ctx::DeclarationPay),
        Payee => matches!(ctx, Ctx::Pay | Ctx::DeclarationPay | Ctx::AllPass),
        Total => ctx == Ctx::Pay,
        Taker | Partner | Attack | Defence => matches!(ctx, Ctx::Lead | Ctx::Score | Ctx::Pay | Ctx::PerPlayer | Ctx::Allowed | Ctx::Turn | Ctx::Packet | Ctx::DeclarationPay),
        Called => matches!(ctx, Ctx::Called | Ctx::Score | Ctx::Pay | Ctx::PerPlayer | Ctx::Packet | Ctx::Allowed | Ctx::DeclarationPay),
        Tricks => matches!(ctx, Ctx::Score | Ctx::Pay | Ctx::PerPlayer | Ctx::Turn),
        LastTrick => matches!(ctx, Ctx::Score | Ctx::Pay | Ctx::PerPlayer),
        Trick => ctx == Ctx::Turn,
    }
}

pub(super) const FACTS: &[(&str, Fact)] = &[
    ("players", Fact::Players),
    ("table_size", Fact::Table),
    ("dealer", Fact::Dealer),
    ("first_hand", Fact::FirstHand),
    ("taker", Fact::Taker),
    ("partner", Fact::Partner),
    ("called", Fact::Called),
    ("attack", Fact::Attack),
    ("defence", Fact::Defence),
    ("tricks", Fact::Tricks),
    ("last_trick", Fact::LastTrick),
    ("trick", Fact::Trick),
    ("deal.dog", Fact::DogSize),
    ("hand", Fact::Hand),
    ("first_packet", Fact::FirstPacket),
    ("shown", Fact::Shown),
    ("value", Fact::DeclValue),
    ("best_value", Fact::BestValue),
    ("discarded", Fact::Discarded),
    ("dog", Fact::Dog),
    ("packet", Fact::Packet),
    ("card", Fact::Card),
    ("last", Fact::Last),
    ("won_by_player", Fact::WonByPlayer),
    ("player", Fact::Player),
    ("payer", Fact::Payer),
    ("payee", Fact::Payee),
    ("total", Fact::Total),
];

/// Functions: name, the game function, argument count range, whether it needs the game (not foldable).
pub(super) const FUNCS: &[(&str, Func, usize, usize)] = &[
    ("count", Func::Count, 1, 2),
    ("has", Func::Has, 2, 2),
    ("abs", Func::Abs, 1, 1),
    ("floor", Func::Floor, 1, 1),
    ("ceil", Func::Ceil, 1, 1),
    ("pow", Func::Pow, 2, 2),
    ("round", Func::Round, 1, 1),
    ("min", Func::Min, 1, 9),
    ("max", Func::Max, 1, 9),
    ("contains", Func::Contains, 2, 2),
    ("index", Func::Index, 2, 2),
    ("complete", Func::Complete, 2, 16),
    ("run", Func::Run, 2, 4),
    ("runs", Func::Runs, 3, 3),
    ("in_runs", Func::InRuns, 3, 3),
    ("suit_of", Func::SuitOf, 1, 1),
    ("points", Func::Points, 1, 1),
    ("points_of", Func::PointsOf, 1, 1),
    ("pile", Func::Pile, 1, 1),
    ("taken", Func::Taken, 1, 1),
    ("hand_of", Func::HandOf, 1, 1),
    ("played", Func::Played, 1, 1),
    ("withheld", Func::Withheld, 1, 1),
    ("winner_side", Func::WinnerSide, 1, 1),
    ("winner", Func::Winner, 1, 1),
    ("sat_out", Func::SatOut, 1, 1),
    ("side", Func::Side, 1, 1),
    ("won", Func::Won, 1, 1),
    ("winning_card", Func::WinningCard, 1, 1),
    ("leading_card", Func::LeadingCard, 1, 1),
    ("declared", Func::Declared, 1, 2),
    ("showed", Func::Showed, 1, 2),
    ("announced", Func::Announced, 1, 2),
    ("declarer", Func::Declarer, 1, 1),
    ("carried", Func::Standing, 1, 1),
    ("dealt", Func::Dealt, 2, 2),
    ("bid_before", Func::BidBefore, 2, 2),
    ("passed_over", Func::PassedOver, 2, 2),
];

pub(super) const GAME_FUNCS: &[Func] = &[
    Func::Points,
    Func::PointsOf,
    Func::Pile,
    Func::Taken,
    Func::HandOf,
    Func::Played,
    Func::Withheld,
    Func::WinnerSide,
    Func::Winner,
    Func::SatOut,
    Func::Side,
    Func::Won,
    Func::WinningCard,
    Func::LeadingCard,
    Func::Declared,
    Func::Showed,
    Func::Announced,
    Func::Declarer,
    Func::Pot,
    Func::Carried,
    Func::Standing,
    Func::Dealt,
    Func::BidBefore,
    Func::PassedOver,
];

pub(super) fn ctx_words(ctx: Ctx) -> &'static str {
    match ctx {
        Ctx::Setup => "before the deal (only options, players and constants are)",
        Ctx::Class => "in a card class",
        Ctx::Hand => {
            "in an annulment, the untouchable card's, a must-bid's or a contract's `by` condition (hand, first_packet, player, dealer, first_hand, players and constants are)"
        }
        Ctx::Declaration => "in a declaration (hand, shown, value and player are)",
        Ctx::PaidBy => "in `paid-by` (payer is)",
        Ctx::Discard => "in the discard's `require` and `penalty` (discarded, hand, dog, player and the contract are)",
        Ctx::Lead => "when choosing the leader (taker, first_hand, dealer and declarations are)",
        Ctx::Trigger => "in a payment during play (card, last, won_by_player and player are)",
        Ctx::Score => "in the score (attack, defence, taker, partner, tricks, last_trick and the game's functions are)",
        Ctx::Pay => "in a payment (payer, payee and total are)",
        Ctx::PerPlayer => "per player (player is)",
        Ctx::Called => "after the call (called is)",
        Ctx::AfterAuction => "in a setting that applies after the auction (options, players, constants and the contract are)",
        Ctx::Allowed => "in a declaration's `allowed` (hand, player, taker, partner, attack, defence, called, dog and contract.ATTR are)",
        Ctx::DeclarationPay => {
            "in a declaration's `pay` (payer, payee, hand, shown, value, player, taker, partner, attack, defence, called, dog and contract.ATTR are)"
        }
        Ctx::Turn => "in the condition of `must lead|play`, `keep`, `withhold` and `excuse` (hand, player, taker, partner, attack, defence, contract.ATTR, tricks and trick, the trick in play, are)",
        Ctx::Dealt => "in the deal's `require` (dealer, first_hand, players, options and carried(p) are)",
        Ctx::AllPass => "in a payment when everyone passes (payer, payee, dealer, first_hand, players, table_size and options are)",
        Ctx::Packet => "in the talon's `rest` (packet, called, taker, partner, attack, defence, dealer, first_hand, players, options and the contract are)",
    }
}
