DROP TABLE saved_setups;
