ALTER TABLE games DROP COLUMN clocks;
ALTER TABLE games DROP COLUMN time_control;
