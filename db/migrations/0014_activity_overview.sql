-- The console's activity overview (server/services/activities/overview; docs/decisions/0014, fifty-third pass):
-- due soon and overdue by project, status and start; recently expired by project and when it expired. Without
-- them its six statements each read every activity of the project (49-128 ms each at 138,000 activities, with
-- parallel workers on both cores); with them 0.2-28 ms, reading what the sections count and show.
CREATE INDEX "activity_overview_idx" ON "activity" USING btree ("project_id","status","activate_at");--> statement-breakpoint
CREATE INDEX "activity_expired_idx" ON "activity" USING btree ("project_id","updated_at") WHERE "activity"."status" = 'expired';