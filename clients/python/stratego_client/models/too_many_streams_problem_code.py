from enum import Enum


class TooManyStreamsProblemCode(str, Enum):
    ALREADY_ON_VACATION = "already_on_vacation"
    FORBIDDEN = "forbidden"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    ILLEGAL_MOVE = "illegal_move"
    INTERNAL_ERROR = "internal_error"
    INVALID_SETUP = "invalid_setup"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    MORE_SQUARES_RULE = "more_squares_rule"
    NOT_ENOUGH_PLAYERS = "not_enough_players"
    NOT_FOUND = "not_found"
    NOT_YOUR_TURN = "not_your_turn"
    PAYLOAD_TOO_LARGE = "payload_too_large"
    RATE_LIMITED = "rate_limited"
    REQUEST_TIMEOUT = "request_timeout"
    SERVICE_UNAVAILABLE = "service_unavailable"
    SETUP_NAME_TAKEN = "setup_name_taken"
    TOO_MANY_STREAMS = "too_many_streams"
    TOURNAMENT_FULL = "tournament_full"
    TWO_SQUARE_RULE = "two_square_rule"
    UNAUTHORIZED = "unauthorized"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    USERNAME_TAKEN = "username_taken"
    VACATION_BUDGET_EXCEEDED = "vacation_budget_exceeded"
    VALIDATION_FAILED = "validation_failed"
    VERSION_CONFLICT = "version_conflict"
    WRONG_PHASE = "wrong_phase"

    def __str__(self) -> str:
        return str(self.value)
