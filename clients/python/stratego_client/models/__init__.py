"""Contains all the data models used in inputs/outputs"""

from .abort_reason import AbortReason
from .army_piece import ArmyPiece
from .auto_vacation import AutoVacation
from .bad_square_setup_problem import BadSquareSetupProblem
from .bad_square_setup_problem_problem import BadSquareSetupProblemProblem
from .battle import Battle
from .board_piece import BoardPiece
from .bot_info import BotInfo
from .bot_list import BotList
from .captured import Captured
from .challenge_declined_event import ChallengeDeclinedEvent
from .challenge_declined_event_type import ChallengeDeclinedEventType
from .challenge_received_event import ChallengeReceivedEvent
from .challenge_received_event_type import ChallengeReceivedEventType
from .channel_switches import ChannelSwitches
from .channel_switches_input import ChannelSwitchesInput
from .clock_view import ClockView
from .clocks_view import ClocksView
from .color import Color
from .color_choice import ColorChoice
from .create_game_request import CreateGameRequest
from .create_tournament import CreateTournament
from .created_webhook import CreatedWebhook
from .credentials import Credentials
from .deadline_soon_event import DeadlineSoonEvent
from .deadline_soon_event_type import DeadlineSoonEventType
from .delete_account import DeleteAccount
from .delivery import Delivery
from .delivery_list import DeliveryList
from .draw_action import DrawAction
from .draw_offered_event import DrawOfferedEvent
from .draw_offered_event_type import DrawOfferedEventType
from .draw_request import DrawRequest
from .duplicate_square_setup_problem import DuplicateSquareSetupProblem
from .duplicate_square_setup_problem_problem import DuplicateSquareSetupProblemProblem
from .email_code import EmailCode
from .email_input import EmailInput
from .email_state import EmailState
from .end_reason import EndReason
from .event_page import EventPage
from .export_game_format import ExportGameFormat
from .export_setups import ExportSetups
from .field_error import FieldError
from .field_error_field import FieldErrorField
from .fischer_ranges import FischerRanges
from .fischer_time_control import FischerTimeControl
from .fischer_time_control_type import FischerTimeControlType
from .game_aborted_event import GameAbortedEvent
from .game_aborted_event_type import GameAbortedEventType
from .game_export import GameExport
from .game_finished_event import GameFinishedEvent
from .game_finished_event_type import GameFinishedEventType
from .game_page import GamePage
from .game_result import GameResult
from .game_started_event import GameStartedEvent
from .game_started_event_type import GameStartedEventType
from .game_summary import GameSummary
from .game_view import GameView
from .integer_range import IntegerRange
from .join_tournament import JoinTournament
from .lake_setup_problem import LakeSetupProblem
from .lake_setup_problem_problem import LakeSetupProblemProblem
from .last_move import LastMove
from .leaderboard import Leaderboard
from .leaderboard_entry import LeaderboardEntry
from .move import Move
from .move_answer import MoveAnswer
from .move_history import MoveHistory
from .move_refusal import MoveRefusal
from .move_refusal_code import MoveRefusalCode
from .move_refusal_reason import MoveRefusalReason
from .move_request import MoveRequest
from .move_view import MoveView
from .moves_in_days_ranges import MovesInDaysRanges
from .moves_in_days_time_control import MovesInDaysTimeControl
from .moves_in_days_time_control_type import MovesInDaysTimeControlType
from .notice import Notice
from .notice_data import NoticeData
from .notify_event import NotifyEvent
from .opponent_joined_event import OpponentJoinedEvent
from .opponent_joined_event_type import OpponentJoinedEventType
from .outcome import Outcome
from .outside_zone_setup_problem import OutsideZoneSetupProblem
from .outside_zone_setup_problem_problem import OutsideZoneSetupProblemProblem
from .password_change import PasswordChange
from .per_move_ranges import PerMoveRanges
from .per_move_time_control import PerMoveTimeControl
from .per_move_time_control_type import PerMoveTimeControlType
from .piece import Piece
from .placement_setup import PlacementSetup
from .placement_setup_placement import PlacementSetupPlacement
from .player_ref import PlayerRef
from .players import Players
from .preferences import Preferences
from .preferences_events import PreferencesEvents
from .preferences_input import PreferencesInput
from .preferences_input_events import PreferencesInputEvents
from .probe_status import ProbeStatus
from .probe_status_status import ProbeStatusStatus
from .problem import Problem
from .problem_code import ProblemCode
from .profile import Profile
from .push_keys import PushKeys
from .push_subscription import PushSubscription
from .push_subscription_input import PushSubscriptionInput
from .push_subscription_list import PushSubscriptionList
from .random_setup import RandomSetup
from .rate_limited_problem import RateLimitedProblem
from .rate_limited_problem_code import RateLimitedProblemCode
from .rating_history import RatingHistory
from .rating_point import RatingPoint
from .rating_view import RatingView
from .refresh_request import RefreshRequest
from .registered import Registered
from .registered_token_type import RegisteredTokenType
from .rematch_offered_event import RematchOfferedEvent
from .rematch_offered_event_type import RematchOfferedEventType
from .rematch_request import RematchRequest
from .rescue import Rescue
from .rescue_request import RescueRequest
from .rescues_used import RescuesUsed
from .round_game import RoundGame
from .round_game_view import RoundGameView
from .round_started_event import RoundStartedEvent
from .round_started_event_type import RoundStartedEventType
from .round_view import RoundView
from .rules import Rules
from .rules_view import RulesView
from .saved_setup import SavedSetup
from .saved_setup_choice import SavedSetupChoice
from .saved_setup_placement import SavedSetupPlacement
from .settings import Settings
from .setup_done import SetupDone
from .setup_list import SetupList
from .setup_refusal import SetupRefusal
from .setup_refusal_code import SetupRefusalCode
from .setup_to_save import SetupToSave
from .setup_to_save_placement import SetupToSavePlacement
from .setup_zones import SetupZones
from .standing_view import StandingView
from .standing_view_tiebreaks import StandingViewTiebreaks
from .start_vacation import StartVacation
from .status import Status
from .stream_events_response_200 import StreamEventsResponse200
from .stream_events_response_200_event import StreamEventsResponse200Event
from .stream_game_response_200 import StreamGameResponse200
from .stream_game_response_200_event import StreamGameResponse200Event
from .time_control_ranges import TimeControlRanges
from .token_pair import TokenPair
from .token_pair_token_type import TokenPairTokenType
from .too_many_streams_problem import TooManyStreamsProblem
from .too_many_streams_problem_code import TooManyStreamsProblemCode
from .tournament_finished_event import TournamentFinishedEvent
from .tournament_finished_event_type import TournamentFinishedEventType
from .tournament_link import TournamentLink
from .tournament_list import TournamentList
from .tournament_player import TournamentPlayer
from .tournament_started_event import TournamentStartedEvent
from .tournament_started_event_type import TournamentStartedEventType
from .tournament_status import TournamentStatus
from .tournament_summary import TournamentSummary
from .tournament_system import TournamentSystem
from .tournament_view import TournamentView
from .unknown_piece_setup_problem import UnknownPieceSetupProblem
from .unknown_piece_setup_problem_problem import UnknownPieceSetupProblemProblem
from .user_view import UserView
from .vacation_ended_event import VacationEndedEvent
from .vacation_ended_event_type import VacationEndedEventType
from .vacation_started_event import VacationStartedEvent
from .vacation_started_event_type import VacationStartedEventType
from .vacation_view import VacationView
from .validation_problem import ValidationProblem
from .validation_problem_code import ValidationProblemCode
from .vapid_public_key import VapidPublicKey
from .variant import Variant
from .variant_info import VariantInfo
from .variant_list import VariantList
from .webhook import Webhook
from .webhook_input import WebhookInput
from .webhook_list import WebhookList
from .wrong_count_setup_problem import WrongCountSetupProblem
from .wrong_count_setup_problem_problem import WrongCountSetupProblemProblem
from .your_turn_event import YourTurnEvent
from .your_turn_event_type import YourTurnEventType

__all__ = (
    "AbortReason",
    "ArmyPiece",
    "AutoVacation",
    "BadSquareSetupProblem",
    "BadSquareSetupProblemProblem",
    "Battle",
    "BoardPiece",
    "BotInfo",
    "BotList",
    "Captured",
    "ChallengeDeclinedEvent",
    "ChallengeDeclinedEventType",
    "ChallengeReceivedEvent",
    "ChallengeReceivedEventType",
    "ChannelSwitches",
    "ChannelSwitchesInput",
    "ClocksView",
    "ClockView",
    "Color",
    "ColorChoice",
    "CreatedWebhook",
    "CreateGameRequest",
    "CreateTournament",
    "Credentials",
    "DeadlineSoonEvent",
    "DeadlineSoonEventType",
    "DeleteAccount",
    "Delivery",
    "DeliveryList",
    "DrawAction",
    "DrawOfferedEvent",
    "DrawOfferedEventType",
    "DrawRequest",
    "DuplicateSquareSetupProblem",
    "DuplicateSquareSetupProblemProblem",
    "EmailCode",
    "EmailInput",
    "EmailState",
    "EndReason",
    "EventPage",
    "ExportGameFormat",
    "ExportSetups",
    "FieldError",
    "FieldErrorField",
    "FischerRanges",
    "FischerTimeControl",
    "FischerTimeControlType",
    "GameAbortedEvent",
    "GameAbortedEventType",
    "GameExport",
    "GameFinishedEvent",
    "GameFinishedEventType",
    "GamePage",
    "GameResult",
    "GameStartedEvent",
    "GameStartedEventType",
    "GameSummary",
    "GameView",
    "IntegerRange",
    "JoinTournament",
    "LakeSetupProblem",
    "LakeSetupProblemProblem",
    "LastMove",
    "Leaderboard",
    "LeaderboardEntry",
    "Move",
    "MoveAnswer",
    "MoveHistory",
    "MoveRefusal",
    "MoveRefusalCode",
    "MoveRefusalReason",
    "MoveRequest",
    "MovesInDaysRanges",
    "MovesInDaysTimeControl",
    "MovesInDaysTimeControlType",
    "MoveView",
    "Notice",
    "NoticeData",
    "NotifyEvent",
    "OpponentJoinedEvent",
    "OpponentJoinedEventType",
    "Outcome",
    "OutsideZoneSetupProblem",
    "OutsideZoneSetupProblemProblem",
    "PasswordChange",
    "PerMoveRanges",
    "PerMoveTimeControl",
    "PerMoveTimeControlType",
    "Piece",
    "PlacementSetup",
    "PlacementSetupPlacement",
    "PlayerRef",
    "Players",
    "Preferences",
    "PreferencesEvents",
    "PreferencesInput",
    "PreferencesInputEvents",
    "ProbeStatus",
    "ProbeStatusStatus",
    "Problem",
    "ProblemCode",
    "Profile",
    "PushKeys",
    "PushSubscription",
    "PushSubscriptionInput",
    "PushSubscriptionList",
    "RandomSetup",
    "RateLimitedProblem",
    "RateLimitedProblemCode",
    "RatingHistory",
    "RatingPoint",
    "RatingView",
    "RefreshRequest",
    "Registered",
    "RegisteredTokenType",
    "RematchOfferedEvent",
    "RematchOfferedEventType",
    "RematchRequest",
    "Rescue",
    "RescueRequest",
    "RescuesUsed",
    "RoundGame",
    "RoundGameView",
    "RoundStartedEvent",
    "RoundStartedEventType",
    "RoundView",
    "Rules",
    "RulesView",
    "SavedSetup",
    "SavedSetupChoice",
    "SavedSetupPlacement",
    "Settings",
    "SetupDone",
    "SetupList",
    "SetupRefusal",
    "SetupRefusalCode",
    "SetupToSave",
    "SetupToSavePlacement",
    "SetupZones",
    "StandingView",
    "StandingViewTiebreaks",
    "StartVacation",
    "Status",
    "StreamEventsResponse200",
    "StreamEventsResponse200Event",
    "StreamGameResponse200",
    "StreamGameResponse200Event",
    "TimeControlRanges",
    "TokenPair",
    "TokenPairTokenType",
    "TooManyStreamsProblem",
    "TooManyStreamsProblemCode",
    "TournamentFinishedEvent",
    "TournamentFinishedEventType",
    "TournamentLink",
    "TournamentList",
    "TournamentPlayer",
    "TournamentStartedEvent",
    "TournamentStartedEventType",
    "TournamentStatus",
    "TournamentSummary",
    "TournamentSystem",
    "TournamentView",
    "UnknownPieceSetupProblem",
    "UnknownPieceSetupProblemProblem",
    "UserView",
    "VacationEndedEvent",
    "VacationEndedEventType",
    "VacationStartedEvent",
    "VacationStartedEventType",
    "VacationView",
    "ValidationProblem",
    "ValidationProblemCode",
    "VapidPublicKey",
    "Variant",
    "VariantInfo",
    "VariantList",
    "Webhook",
    "WebhookInput",
    "WebhookList",
    "WrongCountSetupProblem",
    "WrongCountSetupProblemProblem",
    "YourTurnEvent",
    "YourTurnEventType",
)
