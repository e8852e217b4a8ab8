-- A delivery goes to a webhook, to a push subscription or by e-mail: the
-- index of each channel holds only the deliveries that go there (a
-- webhook's list, the cascade when a webhook or a subscription goes), not
-- an entry of every delivery under a null (docs/notifications.md, "The
-- outbox").
DROP INDEX deliveries_webhook;
DROP INDEX deliveries_push;
CREATE INDEX deliveries_webhook ON deliveries (webhook_id, created_at)
    WHERE webhook_id IS NOT NULL;
CREATE INDEX deliveries_push ON deliveries (push_subscription_id)
    WHERE push_subscription_id IS NOT NULL;
