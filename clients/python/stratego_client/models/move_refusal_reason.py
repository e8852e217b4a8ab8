from enum import Enum


class MoveRefusalReason(str, Enum):
    BLOCKED = "blocked"
    DIAGONAL = "diagonal"
    DRAW_ALREADY_OFFERED = "draw_already_offered"
    DRAW_OFFER_PENDING = "draw_offer_pending"
    GAME_OVER = "game_over"
    IMMOVABLE = "immovable"
    LAKE = "lake"
    MORE_SQUARES_RULE = "more_squares_rule"
    NOT_YOUR_PIECE = "not_your_piece"
    NOT_YOUR_TURN = "not_your_turn"
    NO_DRAW_OFFER = "no_draw_offer"
    NO_PIECE = "no_piece"
    OWN_DRAW_OFFER = "own_draw_offer"
    OWN_PIECE = "own_piece"
    RESCUE_BOMB = "rescue_bomb"
    RESCUE_BY_SCOUT = "rescue_by_scout"
    RESCUE_DISABLED = "rescue_disabled"
    RESCUE_LIMIT = "rescue_limit"
    RESCUE_NOT_CAPTURED = "rescue_not_captured"
    RESCUE_NOT_ON_BACK_ROW = "rescue_not_on_back_row"
    RESCUE_SAME_PIECE = "rescue_same_piece"
    RESCUE_SQUARE = "rescue_square"
    SAME_SQUARE = "same_square"
    SCOUT_LONG_ATTACK = "scout_long_attack"
    THROUGH_LAKE = "through_lake"
    TIMEOUT_NOT_ON_TURN = "timeout_not_on_turn"
    TOO_FAR = "too_far"
    TWO_SQUARE_RULE = "two_square_rule"

    def __str__(self) -> str:
        return str(self.value)
