-- Which worker runs a turn, and until when: the worker renews the leases of its running turns with its
-- heartbeat; a running turn whose lease has run out belongs to a worker that died, and another worker ends it
-- as interrupted. Turns from before this version have neither (the boot of the one hub ends them).
ALTER TABLE turns ADD COLUMN worker_id TEXT;
ALTER TABLE turns ADD COLUMN lease_expires_at INTEGER;
