ALTER TABLE "one_time_tokens" ADD COLUMN "quote_id" text;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "sent_to" text;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "sent_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "opened_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "accepted_by_name" text;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "po_number" text;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "accepted_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "accepted_from" text;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "reminded_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "one_time_tokens" ADD CONSTRAINT "one_time_tokens_quote_id_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."quotes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "one_time_tokens_quote_idx" ON "one_time_tokens" USING btree ("quote_id");