ALTER TABLE games DROP COLUMN draw_offer;
