//! The `declaration` sections: a declaration checked when made (its timing, who may make it, the
//! cards shown, its `require`s and value) and paid, the best show a hand has, and the declarations
//! open to each player now.

use crate::cards::{Card, CardSet, FOOL};
use crate::expr::{eval, truthy, Expr, Fact, Value};
use crate::ir::*;
use crate::label::with_article;
use crate::num::Q;
use crate::verdict::{LedgerEntry, OpenDeclaration};

use super::{Game, GameEnv, Move, Phase, Stop};

impl<'s, 'r> Game<'s, 'r> {
    pub(super) fn declare(&mut self, p: u8, k: usize, shown: CardSet) -> Result<(), Stop> {
        let rules = self.rules();
        let d = &rules.declarations[k];
        let started = !self.tricks.is_empty() || !self.current.is_empty();
        let has_played = self.tricks.iter().any(|t| t.cards.iter().any(|&(q, _)| q == p)) || self.current.iter().any(|&(q, _)| q == p);
        let too_late = match d.when {
            When::BeforePlay | When::AfterDiscard => started,
            When::FirstPlay => has_played,
            When::AfterDeal => self.after_deal_closed,
            When::AfterPlay => false,
            When::BeforeTake => !matches!(self.phase, Phase::Bidding | Phase::Call) && !self.before_take(),
        };
        if let Some(stop) = self.call_missing(p) {
            return Err(stop);
        }
        if let Some(stop) = self.buy_missing(p) {
            return Err(stop);
        }
        let too_early = d.when != When::AfterDeal && matches!(self.phase, Phase::Bidding | Phase::Call)
            || (d.when == When::AfterDiscard && !self.pending_discards.is_empty())
            || (d.when == When::FirstPlay && !too_late && !self.at_first_card(p)?)
            || (d.when == When::AfterPlay && self.phase != Phase::Done);
        if too_late || too_early {
            let when = match d.when {
                When::BeforePlay => "before the first card is played",
                When::AfterDiscard => "after the discard and before the first card",
                When::FirstPlay => "at the declarer's own turn to play his first card",
                When::AfterDeal => "right after the deal, before any other move",
                When::AfterPlay => "once the last trick is played",
                When::BeforeTake => "once the talon is shown, before the taker takes his packet of it",
            };
            // Said too early, at a declarer's first card: what is still to come before his turn.
            let now = match d.when {
                When::FirstPlay if too_early && self.phase != Phase::Play => ": the cards are not yet being played".to_string(),
                When::FirstPlay if too_early => match self.turn() {
                    Ok(q) => format!(": it is {}'s turn to play, not {}'s", self.name(q), self.name(p)),
                    Err(_) => String::new(),
                },
                _ => String::new(),
            };
            return Err(self.violation(&d.clause, p, format!("{} is declared {when}{now}", with_article(&d.label))));
        }
        if let Some(why) = self.not_his_to_declare(p, k, d) {
            return Err(self.violation(&d.clause, p, why));
        }
        if let Some(stop) = self.shows_unseen_talon(p, shown) {
            return Err(stop);
        }
        let hand = self.declaring_hand(p, d);
        if let Some(a) = self.not_allowed(p, d).map_err(|(a, e)| self.rule_error(&a.clause, e))? {
            let why = match &a.reason {
                Some(reason) => self.label(reason),
                None => {
                    let contract = self.contract.and_then(|c| rules.bidding.as_ref().map(|b| format!(" in {}", with_article(&b.contracts[c].label))));
                    format!("it is not allowed{}", contract.as_deref().unwrap_or(" in this game"))
                }
            };
            return Err(self.violation(&a.clause, p, format!("{} may not declare {}: {why}", self.name(p), with_article(&d.label))));
        }
        let missing = shown.minus(hand);
        if !missing.is_empty() {
            return Err(self.violation(&d.clause, p, self.not_his_to_show(p, d, missing)));
        }
        let stray = shown.minus(d.shows);
        if !stray.is_empty() && !d.shows.is_empty() {
            return Err(self.violation(&d.clause, p, format!("{} cannot show {}", with_article(&d.label), rules.cards_named(stray))));
        }
        if d.shows.is_empty() && !shown.is_empty() {
            // An announcement (no `shows`) claims no card: cards shown with it would be taken for a
            // show the rules do not have.
            return Err(self.violation(
                &d.clause,
                p,
                format!("{} is announced, not shown: it shows no card, but {} shows {}", with_article(&d.label), self.name(p), rules.cards_named(shown)),
            ));
        }
        let mut env = self.env(Some(p)).with_hand(hand);
        env.shown = Some(shown);
        if d.requires.iter().any(|(_, c, _)| c.mentions(Fact::BestValue)) {
            env.best_value = Some(self.best_value(p, hand, d));
        }
        // The requirements that do not read the value come first: the value of a show that breaks
        // them may mean nothing (a poignée of 11 trumps has no place in the table of values).
        let check = |env: &GameEnv, reads_value: bool| -> Result<(), Stop> {
            for (msg, cond, clause) in d.requires.iter().filter(|(_, c, _)| c.mentions(Fact::DeclValue) == reads_value) {
                let ok = eval(cond, env).and_then(|v| truthy(&v)).map_err(|e| self.rule_bug(clause, e))?;
                if !ok {
                    let shown_text = if shown.is_empty() { String::new() } else { format!(" (shows {} cards)", shown.len()) };
                    return Err(self.violation(clause, p, format!("{}'s {} is not valid{shown_text}: {}", self.name(p), d.label, self.label(msg))));
                }
            }
            Ok(())
        };
        check(&env, false)?;
        let value = match &d.value {
            Some(e) => match eval(e, &env) {
                Ok(Value::Num(q)) => q,
                Ok(Value::Bool(b)) => Q::int(b as i64),
                Ok(other) => return Err(self.rule_bug(&d.clause, format!("expected a number, found {}", other.type_name()))),
                Err(m) => return Err(self.rule_bug(&d.clause, m)),
            },
            None => Q::ZERO,
        };
        env.decl_value = Some(value);
        check(&env, true)?;
        if let (Some(c), Some(idle)) = (&d.every_card_counts, self.idle_card(p, hand, d, shown, value)) {
            return Err(self.violation(
                c,
                p,
                format!(
                    "{} shows {}, which counts in none of the combinations of his {}: every card shown must count",
                    self.name(p),
                    rules.cards_named(CardSet::single(idle)),
                    d.label
                ),
            ));
        }
        // Out of turn comes last: a declaration that is not valid breaks its own rule first.
        if let Some(why) = self.out_of_turn(p, d) {
            return Err(self.violation(self.in_turn(d).map_or(&d.clause, |(c, _)| c), p, why));
        }
        if let Some(cond) = &d.paid_by {
            // Every other player, or each opponent; the sitter who scores with them as a defender.
            let payers = self.paying() & !if d.paid_by_everyone { 1 << p } else { self.paying_side(p) };
            for o in (0..MAX_PLAYERS as u8).filter(|o| payers >> o & 1 == 1) {
                let mut env = self.env(Some(p));
                env.payer = Some(o);
                env.scoring = true;
                if truthy(&self.eval(cond, &env)?).map_err(|e| self.rule_error(&d.clause, e))? && value != Q::ZERO {
                    // A negative value is paid the other way: the declarer pays each of them.
                    let (from, to, amount) = if value > Q::ZERO { (o, p, value) } else { (p, o, -value) };
                    self.ledger.push(LedgerEntry {
                        rule: d.clause.rule.clone(),
                        label: d.label.clone(),
                        from: Some(self.name(from)),
                        to: Some(self.name(to)),
                        amount,
                        source: d.clause.source.clone(),
                        event: Some(self.event),
                    });
                }
            }
        }
        self.declaration_pays(p, d, hand, shown, value)?;
        self.note_laid_away(p, d, shown);
        self.declarations.push(Declaration { player: p, kind: k, shown, value });
        if let Some(c) = &d.ends_match {
            // The deal ends here, valid, scored on what has been played; the match ends after it.
            self.ended_match = Some(p);
            self.leader = None;
            self.phase = Phase::Done;
            self.notes.push(format!("{} ends the deal and the match with {}: the hand is not played on ({})", self.name(p), with_article(&d.label), c.rule));
            self.discards_go()?;
            return Ok(());
        }
        if let Some(c) = &d.ends_deal {
            // The deal ends here unplayed; what was paid is its whole score, and the match goes on.
            self.ended_deal = Some((p, k));
            self.leader = None;
            self.phase = Phase::Done;
            self.notes.push(format!("{} ends the deal unplayed with {}: nothing more is played or scored ({})", self.name(p), with_article(&d.label), c.rule));
            return Ok(());
        }
        if !started {
            // A declaration may change who leads (an announced chelem); the leader is chosen again.
            self.leader = None;
        }
        Ok(())
    }

    /// The payments of declaration `d` made by `p` (`pay PAYERS to PAYEES = amount`), into the
    /// ledger: each payer pays each other payee the amount worked out for the pair, the other way
    /// when it is negative. The sitter who scores as a defender is one of `players` and of the
    /// `defence`, as in the score.
    fn declaration_pays(&mut self, p: u8, d: &DeclarationKind, hand: CardSet, shown: CardSet, value: Q) -> Result<(), Stop> {
        let mut entries = vec![];
        for pay in &d.pays {
            let (Account::Players(from), Account::Players(to)) = (&pay.from, &pay.to) else { continue };
            let mut env = self.env(Some(p)).with_hand(hand);
            env.shown = Some(shown);
            env.decl_value = Some(value);
            env.scoring = true;
            let set = |e: &Expr, env: &GameEnv| -> Result<u16, Stop> {
                match self.eval_rule(e, env, &pay.clause)? {
                    Value::Players(m) => Ok(m),
                    Value::Player(q) => Ok(1 << q),
                    other => Err(self.rule_error(&pay.clause, format!("a payment goes between players, not {}", other.type_name()))),
                }
            };
            let (from, to) = (set(from, &env)?, set(to, &env)?);
            for a in (0..self.names.len() as u8).filter(|a| from >> a & 1 == 1) {
                for b in (0..self.names.len() as u8).filter(|&b| b != a && to >> b & 1 == 1) {
                    env.payer = Some(a);
                    env.payee = Some(b);
                    let v = self.number(&pay.amount, &env, &pay.clause)?;
                    if v == Q::ZERO {
                        continue;
                    }
                    let (f, t, v) = if v > Q::ZERO { (a, b, v) } else { (b, a, -v) };
                    entries.push(LedgerEntry {
                        rule: pay.clause.rule.clone(),
                        label: pay.label.clone(),
                        from: Some(self.name(f)),
                        to: Some(self.name(t)),
                        amount: v,
                        source: pay.clause.source.clone(),
                        event: Some(self.event),
                    });
                }
            }
        }
        self.ledger.extend(entries);
        Ok(())
    }

    /// Whether the talon is shown in packets and the taker has still to take his (`when before-take`).
    fn before_take(&self) -> bool {
        self.phase == Phase::Discard && self.talon_taker.is_some()
    }

    /// Why `p` may not make declaration `k` (`d`) whatever his cards: who may make it (`by`), and each
    /// player once (each side once with `by any-side`); `None` when he may.
    /// Whether every `allowed` lets `p` make this declaration now (yes where it has none): one check
    /// for the declare event, the open declarations and the simulator.
    fn allowed_to_declare(&self, p: u8, d: &DeclarationKind) -> Result<bool, String> {
        self.not_allowed(p, d).map(|a| a.is_none()).map_err(|(_, e)| e)
    }

    /// The first `allowed` of `d`, in the order written, whose condition is false for `p` now (with
    /// the one whose condition cannot be worked out, as an error).
    fn not_allowed<'d>(&self, p: u8, d: &'d DeclarationKind) -> Result<Option<&'d Allowed>, (&'d Allowed, String)> {
        if d.allowed.is_empty() {
            return Ok(None);
        }
        let env = self.env(Some(p)).with_hand(self.declaring_hand(p, d));
        for a in &d.allowed {
            if !eval(&a.condition, &env).and_then(|v| truthy(&v)).map_err(|e| (a, e))? {
                return Ok(Some(a));
            }
        }
        Ok(None)
    }

    /// Why `p` may not make declaration `d` now for its turn (`in-turn`): a player later in turn
    /// from first hand has made a declaration `in-turn` of the same timing; `None` when he may (or
    /// when `d` is not `in-turn`). A player who had nothing to declare let his turn pass.
    pub(crate) fn out_of_turn(&self, p: u8, d: &DeclarationKind) -> Option<String> {
        let (_, dealer_first) = self.in_turn(d)?;
        let rules = self.rules();
        let (start, from) = if dealer_first { (self.dealer, "the dealer") } else { (self.first_hand(), "first hand") };
        let place = |q: u8| (q as usize + self.n() - start as usize) % self.n();
        let later = self.declarations.iter().find(|x| {
            let e = &rules.declarations[x.kind];
            self.in_turn(e).is_some() && e.when == d.when && place(x.player) > place(p)
        })?;
        Some(format!(
            "{} declares {} out of turn: {}, later in turn from {from}, has already declared {}",
            self.name(p),
            with_article(&d.label),
            self.name(later.player),
            with_article(&rules.declarations[later.kind].label)
        ))
    }

    /// Whether `d` is made in turn in this game, with the rule that orders it and whether the turn
    /// starts at the dealer: `in-turn from dealer` where its condition holds for the game's options
    /// (the compiler has tried every choice of them), else plain `in-turn` (from first hand).
    pub(crate) fn in_turn<'a>(&self, d: &'a DeclarationKind) -> Option<(&'a Clause, bool)> {
        if let Some((e, clause)) = &d.in_turn_from_dealer {
            if eval(e, &self.env(None)).and_then(|v| truthy(&v)).unwrap_or(false) {
                return Some((clause, true));
            }
        }
        d.in_turn.as_ref().map(|c| (c, false))
    }

    /// Whether `d` is compulsory in this game: `compulsory`, or `compulsory = condition` true for
    /// the game's options (the compiler has tried every choice of them).
    pub(crate) fn is_compulsory(&self, d: &DeclarationKind) -> bool {
        d.compulsory.is_some() && d.compulsory_if.as_ref().is_none_or(|e| eval(e, &self.env(None)).and_then(|v| truthy(&v)).unwrap_or(false))
    }

    pub(crate) fn not_his_to_declare(&self, p: u8, k: usize, d: &DeclarationKind) -> Option<String> {
        let attack = self.taker.is_some_and(|_| self.side_of(p) == self.attack());
        let who = match d.by {
            DeclaredBy::Taker if self.taker != Some(p) => Some("only the taker"),
            DeclaredBy::Attack if !attack => Some("only the taker and his partner"),
            DeclaredBy::Defence if self.taker.is_none() || attack => Some("only the defence"),
            _ => None,
        };
        if let Some(who) = who {
            return Some(format!("{who} may declare {}", with_article(&d.label)));
        }
        if d.repeats.is_none() && self.declarations.iter().any(|x| x.player == p && x.kind == k) {
            return Some(format!("{} has already declared {}", self.name(p), with_article(&d.label)));
        }
        if d.by == DeclaredBy::AnySide {
            if let Some(x) = self.declarations.iter().find(|x| x.kind == k && self.side_of(p) >> x.player & 1 == 1) {
                return Some(format!("{}'s side has already declared {}: each side declares it once", self.name(x.player), with_article(&d.label)));
            }
        }
        None
    }

    /// A compulsory declaration (`compulsory`) that `p`'s card about to be played closes, while a
    /// player who holds a valid show of it has not made it: the first card closes those made before
    /// play (for every player), a player's own first card those of `when first-play` (for him).
    /// The violation names the holder and the show he owed (the one `best_show` finds).
    pub(super) fn compulsory_missing(&self, p: u8) -> Option<Stop> {
        let rules = self.rules();
        let started = !self.tricks.is_empty() || !self.current.is_empty();
        let has_played = self.tricks.iter().any(|t| t.cards.iter().any(|&(q, _)| q == p)) || self.current.iter().any(|&(q, _)| q == p);
        for (k, d) in rules.declarations.iter().enumerate() {
            let Some(clause) = &d.compulsory else { continue };
            if !self.is_compulsory(d) {
                continue;
            }
            let (closing, by) = match d.when {
                When::BeforePlay | When::AfterDiscard if !started => ((0..self.n() as u8).collect::<Vec<u8>>(), "before the first card"),
                When::FirstPlay if !has_played => (vec![p], "before his first card"),
                _ => continue,
            };
            for q in closing {
                if self.not_his_to_declare(q, k, d).is_some() {
                    continue;
                }
                let hand = self.declaring_hand(q, d);
                if !self.allowed_to_declare(q, d).unwrap_or(false) {
                    continue;
                }
                let shown = if d.shows.is_empty() { self.valid_show(q, hand, d, CardSet::EMPTY).map(|_| CardSet::EMPTY) } else { self.best_show(q, hand, d) };
                if let Some(shown) = shown {
                    let what = if shown.is_empty() { String::new() } else { format!(" ({})", rules.cards_named(shown)) };
                    return Some(self.violation(clause, q, format!("{} holds {}{what} and must declare it {by}", self.name(q), with_article(&d.label))));
                }
            }
        }
        None
    }

    /// The first requirement of the contract played (`require` in its block) that the game does not
    /// meet when the first card is about to be played: the announcements made before play are closed
    /// then. Read for the taker (`player`, his hand as it is then); the violation is his.
    pub(super) fn contract_requirement_missing(&self) -> Result<Option<Stop>, Stop> {
        let (Some(t), Some(c)) = (self.taker, self.contract) else { return Ok(None) };
        if !self.tricks.is_empty() || !self.current.is_empty() {
            return Ok(None);
        }
        let Some(k) = self.rules().bidding.as_ref().map(|b| &b.contracts[c]) else { return Ok(None) };
        let env = self.env(Some(t)).with_hand(self.hands[t as usize]);
        for (label, e, clause) in &k.requires {
            if !eval(e, &env).and_then(|v| truthy(&v)).map_err(|e| self.rule_error(clause, e))? {
                let message = format!("{} plays {}, which requires {label}: no card may be played without it", self.name(t), with_article(&k.label));
                return Ok(Some(self.violation(clause, t, message)));
            }
        }
        Ok(None)
    }

    /// Whether the contract played has requirements (`require` in its block).
    pub fn contract_requires_anything(&self) -> bool {
        self.contract.zip(self.rules().bidding.as_ref()).is_some_and(|(c, b)| !b.contracts[c].requires.is_empty())
    }

    /// Whether the contract played asks nothing more of the game (`require` in its block) as it stands
    /// now: what the simulator checks before the first card.
    pub fn contract_requirements_met(&self) -> bool {
        matches!(self.contract_requirement_missing(), Ok(None))
    }

    /// The declaration `p` made that binds him to keep card `c` (`keeps`), if any.
    pub(super) fn kept_by(&self, p: u8, c: Card) -> Option<&'r DeclarationKind> {
        let rules = self.rules();
        self.declarations.iter().filter(|x| x.player == p).map(|x| &rules.declarations[x.kind]).find(|d| d.keeps.as_ref().is_some_and(|(k, _)| k.contains(c)))
    }

    /// The cards of `allowed` that `p` may play, once the cards his declarations bind him to keep are
    /// held back: all of them in the last trick, or when nothing else is allowed (a kept card driven
    /// out is played, and the score may say what that costs).
    pub(super) fn keeping(&self, p: u8, allowed: CardSet) -> CardSet {
        if self.cards_to_play(p) <= 1 {
            return allowed;
        }
        let rules = self.rules();
        let kept = self.declarations.iter().filter(|x| x.player == p).filter_map(|x| rules.declarations[x.kind].keeps.as_ref()).fold(CardSet::EMPTY, |a, (k, _)| a.or(*k));
        let free = allowed.minus(kept);
        if free.is_empty() {
            allowed
        } else {
            free
        }
    }

    /// The largest show of `hand` that makes declaration `d` valid (every `require` holds and a value,
    /// where the declaration has one, is not zero), trying the strongest cards first and the Fool last; `None` when there is none.
    /// The declaration's timing and who may make it are not considered.
    pub fn best_show(&self, p: u8, hand: CardSet, d: &DeclarationKind) -> Option<CardSet> {
        // The largest valid run from the strongest card, unless the trimmed show (tried last) is
        // worth more.
        let (runs, trimmed) = self.shows_to_try(p, hand, d);
        let best = runs.into_iter().find_map(|shown| self.valid_show(p, hand, d, shown).map(|v| (v, shown)));
        match trimmed.and_then(|shown| self.valid_show(p, hand, d, shown).map(|v| (v, shown))) {
            Some((v, shown)) if best.is_none_or(|(b, _)| v > b) => Some(shown),
            _ => best.map(|(_, shown)| shown),
        }
    }

    /// The most any valid show of `hand` is worth for declaration `d` (zero when there is none), over
    /// the same shows [`Game::best_show`] tries: what `best_value` means in a `require`.
    pub fn best_value(&self, p: u8, hand: CardSet, d: &DeclarationKind) -> Q {
        let (runs, trimmed) = self.shows_to_try(p, hand, d);
        runs.into_iter().chain(trimmed).filter_map(|shown| self.valid_show(p, hand, d, shown)).max().unwrap_or(Q::ZERO)
    }

    /// A claim made once the last trick is played (`when after-play`): the one move that may follow it.
    pub(super) fn claimed_after_play(&self, m: &Move) -> bool {
        matches!(*m, Move::Declare { kind, .. } if self.rules().declarations.get(kind).is_some_and(|d| d.when == When::AfterPlay))
    }

    /// The cards of `hand` that `p` may show in `d`: those it shows, but for any he took from an unseen
    /// talon (`talon { unseen }`), which he shows to nobody before the hand's end.
    fn showable(&self, p: u8, hand: CardSet, d: &DeclarationKind) -> CardSet {
        hand.and(d.shows).minus(self.unseen_taken(p))
    }

    /// The strongest card of `hand` that `d` shows, then the two strongest, and so on, the Fool last;
    /// largest first. Apart, where the declaration has a value, the smallest show worth as much as all
    /// those cards: each card left out in turn, the Fool and the weakest first, when the value does
    /// not drop without it and no requirement that held with it fails without it (Matadors whose
    /// value is the run down from the XXI but which `require` the Fool and the Pagat keep both).
    /// That show is the combinations the hand holds without the cards that complete none (an
    /// Imperial of four courts of a suit beside a stray Queen, the highest and lowest sequences of
    /// trumps without the trumps between), which no run from the strongest card reaches.
    fn shows_to_try(&self, p: u8, hand: CardSet, d: &DeclarationKind) -> (impl Iterator<Item = CardSet>, Option<CardSet>) {
        let showable = self.showable(p, hand, d);
        let mut ordered: Vec<Card> = showable.iter().filter(|c| !c.is_fool()).collect();
        ordered.reverse();
        if showable.contains(FOOL) {
            ordered.push(FOOL);
        }
        let trimmed = d.value.as_ref().and_then(|e| {
            let mut env = self.env(Some(p)).with_hand(hand);
            let mut worth = |shown: CardSet| -> Option<Q> {
                env.shown = Some(shown);
                match eval(e, &env) {
                    Ok(Value::Num(q)) => Some(q),
                    _ => None,
                }
            };
            let mut shown: CardSet = ordered.iter().copied().collect();
            let all = worth(shown).filter(|q| *q != Q::ZERO)?;
            // The requirements that can be judged before the value (those that read it, or
            // `best_value`, cannot): a card is kept when one that holds needs it.
            let requires: Vec<&Expr> = d.requires.iter().map(|(_, c, _)| c).filter(|c| !c.mentions(Fact::DeclValue) && !c.mentions(Fact::BestValue)).collect();
            let mut env = self.env(Some(p)).with_hand(hand);
            let mut holding = |shown: CardSet| -> Vec<bool> {
                env.shown = Some(shown);
                requires.iter().map(|c| eval(c, &env).ok().and_then(|v| truthy(&v).ok()).unwrap_or(false)).collect()
            };
            let mut held = holding(shown);
            for &c in ordered.iter().rev() {
                let mut without = shown;
                without.remove(c);
                if worth(without) != Some(all) {
                    continue;
                }
                let still = holding(without);
                if held.iter().zip(&still).all(|(before, after)| !before || *after) {
                    shown = without;
                    held = still;
                }
            }
            Some(shown).filter(|s| s.len() < ordered.len())
        });
        ((1..=ordered.len()).rev().map(move |size| ordered[..size].iter().copied().collect::<CardSet>()), trimmed)
    }

    /// The value of a valid show, `None` when a `require` fails or the value is zero. Requirements
    /// that compare with `best_value` are left out: they are about which show to make, not whether one
    /// can be made.
    fn valid_show(&self, p: u8, hand: CardSet, d: &DeclarationKind, shown: CardSet) -> Option<Q> {
        let mut env = self.env(Some(p)).with_hand(hand);
        env.shown = Some(shown);
        let holds = |cond: &Expr, env: &GameEnv| eval(cond, env).ok().and_then(|v| truthy(&v).ok()).unwrap_or(false);
        let requires = || d.requires.iter().map(|(_, c, _)| c).filter(|c| !c.mentions(Fact::BestValue));
        // Requirements that do not need the value first: most shows fail one of them cheaply.
        if !requires().filter(|c| !c.mentions(Fact::DeclValue)).all(|c| holds(c, &env)) {
            return None;
        }
        // A declaration with a value is valid only when it is worth something; one without (an
        // announcement) is worth nothing, as `declare` records it.
        let value = match &d.value {
            Some(e) => match eval(e, &env) {
                Ok(Value::Num(q)) if q != Q::ZERO => q,
                _ => return None,
            },
            None => Q::ZERO,
        };
        env.decl_value = Some(value);
        let valid = requires().filter(|c| c.mentions(Fact::DeclValue)).all(|c| holds(c, &env));
        (valid && self.idle_card(p, hand, d, shown, value).is_none()).then_some(value)
    }

    /// The declarations open now, for every player, with the cards each may show: those `declare`
    /// would accept at this moment (its timing, the taker's alone, not made yet) and for which the
    /// player's hand has a valid show, found as the simulator finds it (the strongest cards first).
    /// Kept out of `next`, which the simulator calls at every move: the verdict alone asks for it.
    pub fn open_declarations(&self) -> Vec<OpenDeclaration> {
        let rules = self.rules();
        if matches!(self.phase, Phase::Deal | Phase::Done) {
            return vec![];
        }
        let started = !self.tricks.is_empty() || !self.current.is_empty();
        let mut out = vec![];
        for (k, d) in rules.declarations.iter().enumerate() {
            for p in 0..self.n() as u8 {
                // The timing `declare` checks.
                let has_played = self.tricks.iter().any(|t| t.cards.iter().any(|&(q, _)| q == p)) || self.current.iter().any(|&(q, _)| q == p);
                // Only a declaration made right after the deal is open during the auction.
                if matches!(self.phase, Phase::Bidding | Phase::Call) && d.when != When::AfterDeal {
                    continue;
                }
                let open = match d.when {
                    When::BeforePlay => !started,
                    When::AfterDiscard => !started && self.pending_discards.is_empty(),
                    When::FirstPlay => !has_played && self.at_first_card(p).unwrap_or(false),
                    When::AfterDeal => !self.after_deal_closed,
                    When::AfterPlay => false,
                    When::BeforeTake => self.before_take(),
                };
                if !open || self.not_his_to_declare(p, k, d).is_some() || self.out_of_turn(p, d).is_some() {
                    continue;
                }
                let hand = self.declaring_hand(p, d);
                if !self.allowed_to_declare(p, d).unwrap_or(false) {
                    continue;
                }
                let (cards, counts) = if d.shows.is_empty() {
                    if self.valid_show(p, hand, d, CardSet::EMPTY).is_none() {
                        continue;
                    }
                    (vec![], vec![])
                } else {
                    let (runs, trimmed) = self.shows_to_try(p, hand, d);
                    let mut counts: Vec<usize> = runs.chain(trimmed).filter(|&s| self.valid_show(p, hand, d, s).is_some()).map(|s| s.len()).collect();
                    counts.sort_unstable_by(|a, b| b.cmp(a));
                    counts.dedup();
                    if counts.is_empty() {
                        continue;
                    }
                    (self.showable(p, hand, d).iter().map(|c| c.to_string()).collect(), counts)
                };
                out.push(OpenDeclaration { player: self.name(p), declaration: d.name.clone(), cards, counts });
            }
        }
        out
    }
}

impl Game<'_, '_> {
    /// The cards `p` may show in declaration `d`, which its formulas read as `hand`: his hand, and
    /// with `from hand-and-discard` the cards he laid away too (Grosstarock's dealer declares a
    /// combination he had to break in his discard, naming the cards laid away).
    pub fn declaring_hand(&self, p: u8, d: &DeclarationKind) -> CardSet {
        if d.when == When::AfterPlay {
            // Claimed at the hand's end: the cards he held before his discard, those left in his
            // hand, those he played and those he laid away.
            let played = self.tricks.iter().flat_map(|t| t.cards.iter()).filter(|&&(q, _)| q == p).map(|&(_, c)| c).collect::<CardSet>();
            return self.hands[p as usize].or(played).or(self.discards[p as usize]);
        }
        let hand = self.hands[p as usize];
        if d.from_discard.is_some() {
            hand.or(self.discards[p as usize])
        } else {
            hand
        }
    }

    /// Why `p` may not show `missing`, cards not in what he may show: not in his hand, and with
    /// `from hand-and-discard` not laid away by him either (a card another player laid away says so).
    fn not_his_to_show(&self, p: u8, d: &DeclarationKind, missing: CardSet) -> String {
        let rules = self.rules();
        let (who, cards) = (self.name(p), rules.cards_named(missing));
        if d.from_discard.is_none() {
            return format!("{who} shows {cards}, which {who} does not hold");
        }
        let others: Vec<String> = (0..self.n() as u8).filter(|&o| o != p && !self.discards[o as usize].and(missing).is_empty()).map(|o| self.name(o).to_string()).collect();
        if others.is_empty() {
            format!("{who} shows {cards}, which {who} neither holds nor laid away")
        } else {
            format!(
                "{who} shows {cards}, which {who} neither holds nor laid away ({} laid it away): {} shows the declarer's own cards laid away, no one else's",
                others.join(", "),
                with_article(&d.label)
            )
        }
    }

    /// With `from hand-and-discard`, a show that names cards `p` laid away: the verdict notes them.
    fn note_laid_away(&mut self, p: u8, d: &DeclarationKind, shown: CardSet) {
        let Some(clause) = &d.from_discard else { return };
        let away = shown.and(self.discards[p as usize]);
        if !away.is_empty() {
            let note = format!("{}'s {} shows {}, laid away in his discard ({})", self.name(p), d.label, self.rules().cards_named(away), clause.rule);
            self.notes.push(note);
        }
    }
}

#[derive(Clone, Debug)]
pub struct Declaration {
    pub player: u8,
    pub kind: usize,
    pub shown: CardSet,
    pub value: Q,
}
