DROP INDEX deliveries_webhook;
DROP INDEX deliveries_push;
CREATE INDEX deliveries_webhook ON deliveries (webhook_id, created_at);
CREATE INDEX deliveries_push ON deliveries (push_subscription_id);
