//! A choice's candidates kept for its statement's replay.
//!
//! A statement that asks a question stops there, and runs again from its start once the
//! answer is in (`Game::run_statement`): the choice that asked is read a second time, on a
//! game that has not changed, to find what the answer picked. Its candidates (the cards of a
//! `choose`/`target`, the slots of a `choose … slot of`) are kept from the first reading and
//! taken back by the second instead of being read again. A window's step that asks a player
//! for an action is replayed the same way, and keeps the offers it asked about the same way
//! (its entries' address standing for the choice's expression).
//!
//! The two readings are matched by [`ChoiceKey`]: the same choice (its expression's address),
//! at the same point of the statement's answers, under as many frames, contexts and variables
//! and the same cards looked at (`it`, nested), on the same game (every change, event,
//! timestamp, turn and use of a random stream), kept only until the statement is done.
//! Nothing is kept when the candidates' reading took an answer or drew from a random stream
//! (skipping it would not take or draw them again), for a search (its reading marks what the
//! searcher sees), in a payability check (which asks nobody), or while a memo records what is
//! read (`rule_memo`: a run must record every read it makes). With the memos verified
//! (`Game::verify_rule_skips`), kept candidates are read again all the same and compared.

use super::agent::Request;
use super::state::CardId;
use super::{Game, Offer};
use smallvec::SmallVec;

/// Where a choice read its candidates (see the module's doc).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct ChoiceKey {
    /// The choice's expression (its candidates'), or the window's entries, by address.
    at: usize,
    /// How many of the statement's answers were taken before it.
    answer_pos: usize,
    /// How many frames, contexts and variables it ran under.
    depth: (usize, usize, usize),
    /// The cards looked at (`it`, innermost last).
    its: SmallVec<[CardId; 4]>,
    /// How many slots are looked at.
    slot_its: usize,
    /// The game: its changes (`generation`), events, timestamps, turn, and the random
    /// streams' uses.
    game: (u64, usize, u64, u32, u64),
}

/// The candidates a choice asked about.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Kept<'p> {
    /// A choice of cards: the cards it may pick, in the order offered.
    Cards(Vec<CardId>),
    /// A choice of a slot: the slots' names (a `Vec`, as a `Game` must stay covariant in
    /// its program's lifetime, which a `SmallVec` of them is not).
    Slots(Vec<&'p str>),
    /// A window's step: the offers the player was asked to choose from, in order.
    Offers(Vec<Offer>),
}

/// A choice's candidates as they are kept ([`Kept`]).
pub(super) trait Candidates<'p>: Sized {
    /// The candidates, to keep.
    fn kept(&self) -> Kept<'p>;
    /// Kept candidates, if of this kind of choice.
    fn from_kept(kept: Kept<'p>) -> Option<Self>;
}

impl<'p> Candidates<'p> for Vec<CardId> {
    fn kept(&self) -> Kept<'p> {
        Kept::Cards(self.clone())
    }

    fn from_kept(kept: Kept<'p>) -> Option<Self> {
        match kept {
            Kept::Cards(cards) => Some(cards),
            Kept::Slots(_) | Kept::Offers(_) => None,
        }
    }
}

impl<'p> Candidates<'p> for SmallVec<[&'p str; 8]> {
    fn kept(&self) -> Kept<'p> {
        Kept::Slots(self.to_vec())
    }

    fn from_kept(kept: Kept<'p>) -> Option<Self> {
        match kept {
            Kept::Slots(slots) => Some(slots.into_iter().collect()),
            Kept::Cards(_) | Kept::Offers(_) => None,
        }
    }
}

impl<'p> Candidates<'p> for Vec<Offer> {
    fn kept(&self) -> Kept<'p> {
        Kept::Offers(self.clone())
    }

    fn from_kept(kept: Kept<'p>) -> Option<Self> {
        match kept {
            Kept::Offers(offers) => Some(offers),
            Kept::Cards(_) | Kept::Slots(_) => None,
        }
    }
}

/// What a reading of candidates must leave as it found it to be skipped on the replay: the
/// answers taken and the random streams' uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct ReadMarks(usize, u64);

impl<'p> Game<'p> {
    /// The key of a choice reading its candidates (`at`: their expression), or `None` when
    /// they are not kept (`search`: the reading marks what is seen; a payability check; reads
    /// being recorded).
    fn choice_key<T: ?Sized>(&self, at: &T, search: bool) -> Option<ChoiceKey> {
        if search || self.dry.active || self.recording() {
            return None;
        }
        let s = &self.state;
        Some(ChoiceKey {
            at: std::ptr::from_ref(at).cast::<()>() as usize,
            answer_pos: self.answer_pos,
            depth: (self.frames.len(), self.ctxs.len(), self.vars.len()),
            its: self.its.iter().copied().collect(),
            slot_its: self.slot_its.len(),
            game: (
                s.generation,
                s.history.len(),
                s.clock,
                s.turn,
                self.stream_uses,
            ),
        })
    }

    /// A choice's candidates (`at`: their expression; `search`: a search's): those kept for it
    /// by the reading that asked, or else `read` now — with the memos verified, read all the
    /// same and compared with the kept ones. Also the marks before the reading (`None`:
    /// nothing read), for [`Game::keep_candidates`].
    pub(super) fn kept_or_read<T: ?Sized, C: Candidates<'p>>(
        &mut self,
        at: &T,
        search: bool,
        read: impl FnOnce(&mut Self) -> Result<C, Box<Request>>,
    ) -> Result<(C, Option<ReadMarks>), Box<Request>> {
        let kept = match self.kept_candidates(at, search) {
            Some(kept) if !self.verify_skips => match C::from_kept(kept) {
                Some(cands) => return Ok((cands, None)),
                None => None,
            },
            kept => kept,
        };
        let since = self.read_marks();
        let cands = read(self)?;
        if let Some(kept) = kept {
            self.verify_kept_choice(&kept, &cands.kept());
        }
        Ok((cands, Some(since)))
    }

    /// The candidates kept by the reading that asked, for the choice about to read them again
    /// (`at`, `search`: as [`Game::keep_candidates`] was given them), taken; `None`: none kept.
    fn kept_candidates<T: ?Sized>(&mut self, at: &T, search: bool) -> Option<Kept<'p>> {
        // no key is made unless something is kept: most choices are read once
        let (kept, _) = self.choice_asked.as_ref()?;
        if Some(kept) == self.choice_key(at, search).as_ref() {
            return self.choice_asked.take().map(|(_, kept)| kept);
        }
        None
    }

    /// Where the reading of candidates stands ([`ReadMarks`]).
    fn read_marks(&self) -> ReadMarks {
        ReadMarks(self.answer_pos, self.stream_uses)
    }

    /// Keeps a choice's candidates for its statement's replay (`at`: their expression;
    /// `search`: a search), when it is about to ask (no answer waits for it): see
    /// [`Game::keep_asked`].
    pub(super) fn keep_candidates<T: ?Sized>(
        &mut self,
        at: &T,
        search: bool,
        since: Option<ReadMarks>,
        cands: &impl Candidates<'p>,
    ) {
        if self.answers.get(self.answer_pos).is_none() {
            self.keep_asked(at, search, since, || cands.kept());
        }
    }

    /// Keeps what a choice that asks read (`kept`, made only if it is kept) for the replay
    /// (`at`, `search`: as [`Game::kept_or_read`] was given them), when the reading (`since`:
    /// the marks before it; `None`: nothing was read) took no answer and drew nothing: it
    /// changed nothing then, and the key made now is the one made before it.
    pub(super) fn keep_asked<T: ?Sized>(
        &mut self,
        at: &T,
        search: bool,
        since: Option<ReadMarks>,
        kept: impl FnOnce() -> Kept<'p>,
    ) {
        if since.is_some_and(|since| since == self.read_marks()) {
            if let Some(key) = self.choice_key(at, search) {
                self.choice_asked = Some((key, kept()));
            }
        }
    }

    /// Forgets the candidates kept for a replay: the statement they were kept for is done.
    pub(super) fn forget_kept_choice(&mut self) {
        self.choice_asked = None;
    }

    /// With the memos verified: candidates kept for a replay, compared with the same read
    /// again (`read`); a difference is a failed check ([`Game::failed_checks`]).
    fn verify_kept_choice(&mut self, kept: &Kept<'p>, read: &Kept<'p>) {
        self.verified_choices = self.verified_choices.saturating_add(1);
        if kept != read {
            self.failed_checks.push(format!(
                "a choice's candidates were to be skipped as unchanged, but reading them again \
                 gave others (kept {kept:?}, read {read:?})"
            ));
        }
    }

    /// How many kept candidates of choices were checked so far ([`Game::verify_rule_skips`]).
    #[doc(hidden)]
    pub fn verified_kept_choices(&self) -> usize {
        self.verified_choices
    }
}
