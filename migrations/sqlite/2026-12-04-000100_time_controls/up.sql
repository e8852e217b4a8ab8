-- Correspondence time controls (docs/lifecycle.md, "Clocks"). A game's
-- time control is fixed when it is created; its clocks change with every
-- move, setup and vacation. Both are JSON written by the server. A game
-- written before them (both null) is played as `per_move` with
-- `days_per_move` days, its clocks read off its deadline.
ALTER TABLE games ADD COLUMN time_control TEXT;
ALTER TABLE games ADD COLUMN clocks TEXT;
