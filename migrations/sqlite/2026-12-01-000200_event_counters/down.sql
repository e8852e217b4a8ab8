DROP TABLE event_counters;
