//! The compiled declarations: when and by whom each is made, what it shows and is worth.

use super::*;

#[derive(Clone, Debug)]
pub struct CardClass {
    pub cards: CardSet,
    pub label: String,
    pub clause: Clause,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum When {
    /// Before the first card is played (Marolles' declarations).
    BeforePlay,
    /// After the discard, before play (an announced chelem).
    AfterDiscard,
    /// Just before the declarer plays his first card (poignée).
    FirstPlay,
    /// Once the deal is done, before any other move (bid, discard, card): the dealer who has not
    /// taken his last cards yet (Tarocchini's call on his first 15, `dealt(player, 15)`).
    AfterDeal,
    /// Once the last trick is played: a claim at the hand's end (the 1821 honours, ATT1821 §49), from
    /// the cards the player held before his discard.
    AfterPlay,
    /// Once the talon is shown in packets (after the auction and any call), before the taker takes
    /// his packet: the declarer who sees the called king in the talon and gives up (Königrufen's
    /// Schleifen).
    BeforeTake,
    /// Once the auction's opening round (`opening-round`) is over, before the next bid or any other
    /// move: a player who throws his hand in between the auction's rounds (Oberwolfach's hand of
    /// seven empty cards, after three Forts).
    AfterOpeningRound,
}

/// Who may make a declaration (`by`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeclaredBy {
    /// Any player, each once (the default).
    Any,
    /// The taker alone (an announced chelem).
    Taker,
    /// The taker or his partner.
    Attack,
    /// A player of the defence (a Kontra).
    Defence,
    /// Any player, but each side once: a player whose side has made it may not make it again.
    AnySide,
}

/// One condition under which a declaration may be made (`allowed "reason" = condition`).
#[derive(Clone, Debug)]
pub struct Allowed {
    /// What the condition asks, in words (`"not by one who passed up the Dreier"`); without one, a
    /// refusal names the contract.
    pub reason: Option<Arc<str>>,
    pub condition: Expr,
    pub clause: Clause,
}

#[derive(Clone, Debug)]
pub struct DeclarationKind {
    pub name: String,
    pub label: Arc<str>,
    pub when: When,
    pub by: DeclaredBy,
    /// `allowed ["reason"] = condition`, each of them: read when the declaration is made, after the
    /// auction (they may read the contract's attributes); a declaration made where one is false breaks
    /// `declaration.NAME.allowed`, and its reason (else the contract) says why.
    pub allowed: Vec<Allowed>,
    /// `keeps = cards`: the declarer must keep these cards (those he holds) until the last trick,
    /// playing one earlier only when he has no other legal card (`declaration.NAME.keeps`).
    pub keeps: Option<(CardSet, Clause)>,
    /// `compulsory`: a player whose hand holds a valid show must make the declaration before its time
    /// runs out (the first card, or his own first card with `when first-play`); the card that closes
    /// it while he has not breaks `declaration.NAME.compulsory` (Grosstarock's declarations).
    pub compulsory: Option<Clause>,
    /// `compulsory = condition of options`: compulsory only in games whose options make it true (the
    /// Leipzig rules of 1754, where an honour not declared is simply not paid); `None` with plain
    /// `compulsory` (always). The compiler has tried every choice of the options it reads.
    pub compulsory_if: Option<Expr>,
    /// `in-turn`: the declarations with this switch (and the same `when`) are made in turn from first
    /// hand: a player declares none of them after a player later in turn has declared one (rule
    /// `declaration.NAME.in-turn`; Grosstarock's "in turn, each player must declare"). A player with
    /// nothing to declare lets his turn pass unrecorded.
    pub in_turn: Option<Clause>,
    /// `in-turn from dealer [= condition of options]`: in games whose options make the condition true
    /// (always without one), the declaration is made in turn as with `in-turn`, the turn starting at
    /// the dealer (the Leipzig rules of 1754: the dealer declares first, then the others); elsewhere
    /// plain `in-turn` (from first hand) rules, if written. Rule `declaration.NAME.in-turn`.
    pub in_turn_from_dealer: Option<(Expr, Clause)>,
    /// `ends-match`: once made, the deal ends at this declaration (valid, scored on what has been
    /// played), and the match ends after it with the declarer's side the winner (Tarocchini's calling
    /// out at 800). Rule `declaration.NAME.ends-match`.
    pub ends_match: Option<Clause>,
    /// `ends-match after-deal-by "who" = condition`: once made, the deal goes on as ever, and the
    /// player it names (the first in turn from first hand whose hand as dealt meets the condition:
    /// Cego's holder of the Gstieß) deals the match's last deal: the match is over after the first
    /// later deal played to the end that he deals (`matches::match_state`). Rule
    /// `declaration.NAME.ends-match`.
    pub ends_match_after: Option<LastDealer>,
    /// `ends-deal`: once made, the deal ends at this declaration unplayed: no move may follow, the
    /// score section (which works on tricks) is not run, and each player's score is his balance of
    /// the payments made (the declaration's own `paid`); the match goes on. Rule
    /// `declaration.NAME.ends-deal`.
    pub ends_deal: Option<Clause>,
    /// `ends-deal annul`: the deal it ends is thrown in, annulled (void, dealt again as after any
    /// annulled deal: `next_dealer_annulled`), not a valid deal scored by its payments; it pays nothing.
    pub annuls: bool,
    /// `repeats`: a player may make the declaration again, each making one more of it (its value
    /// counted each time in `declared`): a double answered by a double without limit (Dobbm's
    /// Schwacher and Retour). Only an announcement (no show), never compulsory, in turn or ending
    /// the deal.
    pub repeats: Option<Clause>,
    /// `every-card-counts`: each card shown must count, its value dropping (or a requirement failing)
    /// without it (Tarocchini's accusi). Rule `declaration.NAME.every-card-counts`.
    pub every_card_counts: Option<Clause>,
    /// `from hand-and-discard`: the cards shown may be those the declarer laid away as well as those
    /// in his hand, and `hand` in the declaration's formulas is both (Grosstarock's dealer, who still
    /// declares a combination he had to break in his discard). `None`: the hand alone (`from hand`).
    pub from_discard: Option<Clause>,
    pub shows: CardSet,
    pub requires: Vec<(String, Expr, Clause)>,
    pub value: Option<Expr>,
    /// A declaration paid at once (Marolles) is paid by each opponent for whom this holds; `None` for a
    /// declaration that only counts in the score (a poignée).
    pub paid_by: Option<Expr>,
    /// Paid by every other player, partners too (a misère), not only by the declarer's opponents.
    pub paid_by_everyone: bool,
    /// `pay PAYERS to PAYEES ["label"] = amount`, each of them: paid when the declaration is made,
    /// between any players, each payer paying each other payee the amount worked out for the pair
    /// (`payer`, `payee`, the declarer's `player` and `hand`, every hand as dealt with `hand_of`, the
    /// contract and the sides). Both accounts are players (`Account::Players`). Rule
    /// `declaration.NAME.pay` (Cego's skinned Solo: the skinner, or the claimant, pays each other
    /// player).
    pub pays: Vec<Pay>,
    pub clause: Clause,
}

/// Who deals a match's last deal, named by a declaration (`ends-match after-deal-by "who" =
/// condition`): the first player in turn from first hand whose hand as dealt meets the condition,
/// read as a contract's `by` reads it.
#[derive(Clone, Debug)]
pub struct LastDealer {
    /// Who he is, in words ("the holder of the Gstieß").
    pub label: String,
    pub when: Expr,
    pub clause: Clause,
}
