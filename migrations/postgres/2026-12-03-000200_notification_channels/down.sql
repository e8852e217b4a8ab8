DROP TABLE deliveries;
DROP TABLE notification_cursors;
DROP TABLE notification_preferences;
DROP TABLE email_addresses;
DROP TABLE webhooks;
DROP TABLE push_subscriptions;
