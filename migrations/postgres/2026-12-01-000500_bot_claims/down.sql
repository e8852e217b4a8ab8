DROP TABLE bot_claims;
