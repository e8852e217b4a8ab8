-- The color offering a draw in a game in play, beside the stored state
-- (which is compact, not searchable): the bots find offers to answer by it.
-- Rows written before keep NULL until their next change; the bots' re-scan
-- finds those games by their turn as before.
ALTER TABLE games ADD COLUMN draw_offer TEXT;
