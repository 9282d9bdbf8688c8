"""Who may see and do what: every RPC asks this module, and only this module, which
role its caller has and what that role may be answered.

A call's role comes from its one credential (``authorization: Bearer <token>``,
service/sealing/tokens.py), checked against the game id in the snapshot's
authenticated header:

* the **host** (the host token; with ``CANASTA_ACCESS=trusted``, also a call
  with no credential) acts for any seat and sees everything;
* **seat s** (seat s's token) acts as s only and sees what s may see;
* a **spectator** (no credential) sees the public table and may not act.

=================  =========================  ================================  ======================
call               host                       seat s                            spectator
=================  =========================  ================================  ======================
GetView            any or all seats           s's view (or the public one)      the public view
LegalMoves         the awaited seat's moves   s's moves when s may act, else    refused
                                              none (and who is awaited)
ApplyMove          for any seat               only as s                         refused
views in answers   as requested               s's view (or the public one)      public only
events             all                        public, plus the cards s drew     public only
                                              or took (a Canasta pile)
SuggestMove        for the awaited seat (or   for s, when s may act             refused
                   ``seat``)
ScoreHand          full                       mid-hand: public parts and s's    mid-hand: public parts
                                              own hand; full once it is over    only; full once over
NextDeal           with or without a deck;    without a deck; s's view, no      refused
                   the game's credentials     credentials
ExportPosition     as CANASTA_EXPORT_POLICY   refused                           refused
                   allows
ExportRecord       the whole record, or any   s's own record (its hand and      the public record
                   seat's (``view_seat``)     draws; other hands once a hand    (moves and results,
                                              is over), or the public one       no hand)
Deal, Import-      anyone: the caller becomes the new game's host (its credentials are answered);
Position,          ListVariants is public. These calls have no game to check a credential
ListVariants       against, so one sent with them is not read.
=================  =========================  ================================  ======================

Answers are built for the role (a seat's answer is made from its own view and
events), not built whole and then pruned. Refusals name a reason of their own
and never anything about hidden cards.
"""

from __future__ import annotations

from dataclasses import dataclass

import grpc

from service.api.errors import ServiceError, ServiceReason
from service.ops.config import AccessMode, ExportPolicy
from service.sealing import tokens
from service.sealing.keys import KeyRing
from service.sealing.snapshot import Header

SPECTATOR_SEAT = -1
VERIFIED_CACHE = 4096  # credentials remembered as verified (service/api/access.py Access.role)
_BEARER = "bearer "


@dataclass(frozen=True, slots=True)
class Role:
    """A caller's role in one game: ``seat`` is ``None`` for the host, ``-1`` for a
    spectator, else the seat the credential is for."""

    seat: int | None

    @property
    def is_host(self) -> bool:
        return self.seat is None

    @property
    def is_spectator(self) -> bool:
        return self.seat == SPECTATOR_SEAT



HOST = Role(None)
SPECTATOR = Role(SPECTATOR_SEAT)


def shows_cards(viewer: int | None, seat: int, private: bool) -> bool:
    """Whether an event of ``seat`` shows its cards to ``viewer`` (``None``: the host, -1: a
    spectator): a public event's to everyone, a private one's (the stock cards a seat drew,
    the Canasta pile it took; the engine marks which, engine/events.py) to that seat and
    the host alone."""
    return not private or viewer is None or viewer == seat


def bearer(values: tuple[str, ...]) -> str:
    """The token of a call's ``authorization`` values ("" when there is none).

    :raises ServiceError: ``CREDENTIAL_INVALID`` for more than one credential or
        another scheme than Bearer (RFC 6750).
    """
    if not values:
        return ""
    if len(values) > 1:
        raise ServiceError(grpc.StatusCode.UNAUTHENTICATED, ServiceReason.CREDENTIAL_INVALID,
                           english="send one credential per call")
    value = values[0].strip()
    if value[:len(_BEARER)].lower() != _BEARER:  # stripped: a token follows the space
        raise ServiceError(grpc.StatusCode.UNAUTHENTICATED, ServiceReason.CREDENTIAL_INVALID,
                           english="send the credential as 'Bearer <token>'")
    return value[len(_BEARER):].strip()


def _denied(seat: int, detail: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.PERMISSION_DENIED, ServiceReason.SEAT_NOT_ALLOWED,
                        english=f"seat {seat}'s credential does not allow this: {detail}",
                        metadata={"seat": str(seat)}, params={"seat": seat, "detail": detail})


def _required() -> ServiceError:
    return ServiceError(grpc.StatusCode.UNAUTHENTICATED, ServiceReason.CREDENTIAL_REQUIRED)


def _own_seat(role: Role, requested: int | None, only: str) -> int | None:
    """The seat a call acts for: the host's choice (``None``: the awaited seat), a seat's
    own seat; a spectator is refused, and a seat that names another (``only`` says why)."""
    if role.is_host:
        return requested
    if role.is_spectator:
        raise _required()
    seat = role.seat
    assert seat is not None
    if requested is not None and requested != seat:
        raise _denied(seat, f"{only}, not for seat {requested}")
    return seat


class Access:
    """The access rules of one server: its key ring, access mode and export policy."""

    def __init__(self, keys: KeyRing, mode: AccessMode = AccessMode.TOKENS,
                 export_policy: ExportPolicy = ExportPolicy.ANY) -> None:
        self.keys = keys
        self.mode = mode
        self.export_policy = export_policy
        # (token, game id) pairs already verified, and the role each grants: a player
        # sends the same token with every call of its game, and the ring never changes
        # while the process runs. Only exact pairs hit; refusals are never remembered.
        self._verified: dict[tuple[str, bytes], Role] = {}

    # --- credentials ------------------------------------------------------------

    def role(self, authorization: tuple[str, ...], header: Header) -> Role:
        """The role a call's credential grants in the snapshot's game.

        :raises ServiceError: a malformed, forged, retired or other game's credential.
        """
        token = bearer(authorization)
        if not token:
            return HOST if self.mode is AccessMode.TRUSTED else SPECTATOR
        key = (token, header.game_id)
        known = self._verified.get(key)
        if known is not None:
            return known
        role = tokens.verify(self.keys, token, header.game_id)
        # the service signs seat tokens only for the game's seats: a valid one names one
        found = HOST if role == tokens.HOST_ROLE else Role(
            int(role[len(tokens.SEAT_ROLE_PREFIX):]))
        if len(self._verified) >= VERIFIED_CACHE:
            self._verified.clear()  # a crude bound: refilled by the next calls
        self._verified[key] = found
        return found

    @staticmethod
    def creator() -> Role:
        """The role of whoever starts a game (Deal, ImportPosition): its host. These calls
        have no game to check a credential against, so one sent with them is not read."""
        return HOST

    def credentials(self, game_id: bytes, players: int) -> tuple[str, list[str]]:
        """The host token and the seat tokens of a game (for its host only)."""
        return tokens.issue_all(self.keys, game_id, players)

    # --- what each call may do and see ----------------------------------------------

    @staticmethod
    def views(role: Role, requested: int | None) -> int | None:
        """Which views an answer carries: ``None`` every seat's, else one seat's (``-1``
        the public one). The host gets what it asks for; a seat its own or the public
        view; a spectator the public view.

        :raises ServiceError: a view the role may not see.
        """
        if role.is_host:
            return requested
        seat = role.seat
        assert seat is not None
        if requested is None or requested in (seat, SPECTATOR_SEAT):
            return seat if requested is None else requested
        if role.is_spectator:
            raise _required()
        raise _denied(seat, f"it sees its own view only, not seat {requested}'s")

    @staticmethod
    def actor(role: Role, requested: int | None) -> int | None:
        """The seat a move is applied for: ``None`` (the awaited seat) or a seat.

        :raises ServiceError: a spectator, or a seat claiming another seat.
        """
        return _own_seat(role, requested, "it moves for itself only")

    @staticmethod
    def lister(role: Role) -> int | None:
        """Whose legal moves LegalMoves lists: ``None`` the awaited seat's, else a seat's.

        :raises ServiceError: a spectator.
        """
        if role.is_spectator:
            raise _required()
        return role.seat

    @staticmethod
    def score_viewer(role: Role, over: bool) -> int | None:
        """Whose hands a score counts: ``None`` all (the host, or a hand that is over),
        else the role's seat alone (``-1``: none)."""
        return None if over else role.seat

    @staticmethod
    def events_viewer(role: Role) -> int | None:
        """Whose private events an answer carries: ``None`` all, else one seat's."""
        return role.seat

    @staticmethod
    def dealer(role: Role, deck: bool) -> None:
        """Who may deal the next hand: the host, or a seat without choosing the deck
        (the next hand then follows from the snapshot alone).

        :raises ServiceError: a spectator, or a seat sending a deck.
        """
        if role.is_spectator:
            raise _required()
        if deck and role.seat is not None:
            raise _denied(role.seat, "only the host may choose the deck")

    def exporter(self, role: Role, header: Header) -> None:
        """Who may read the whole position: the host, as the export policy allows.

        :raises ServiceError: any other role, or a policy that forbids it.
        """
        if role.is_spectator:
            raise _required()
        if role.seat is not None:
            raise _denied(role.seat, "the whole position is the host's to export")
        policy = self.export_policy
        if policy is ExportPolicy.OFF or (policy is ExportPolicy.IMPORTED and not header.imported):
            raise ServiceError(grpc.StatusCode.PERMISSION_DENIED, ServiceReason.EXPORT_DISABLED,
                               metadata={"policy": policy.value})

    @staticmethod
    def position_recorder(role: Role) -> None:
        """Who may send ExportRecord a record that starts from a position, or deals a hand
        from a deck: the host. A seeded deal's record binds the secret seed; a position or
        a deck typed by a player could probe where the hidden cards lie, one guess per
        call (a stacked game's seed is often the default 0, so the deck is all a guess
        needs).

        :raises ServiceError: any other role.
        """
        if role.is_spectator:
            raise _required()
        if role.seat is not None:
            raise _denied(role.seat, "only the host may send a record that starts from a "
                          "position or deals from a deck")

    @staticmethod
    def adviser(role: Role, requested: int | None) -> int | None:
        """The seat SuggestMove advises: ``None`` (the awaited seat) or a seat.

        :raises ServiceError: a spectator, or a seat asking for another seat.
        """
        return _own_seat(role, requested, "it is advised for itself only")

    @staticmethod
    def gets_credentials(role: Role) -> bool:
        """Whether an answer may carry the game's credentials (the host's alone)."""
        return role.is_host

