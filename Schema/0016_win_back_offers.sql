-- Win-back offers (DESIGN.md, "Apple's other server tools"): the renewal info's
-- `eligibleWinBackOfferIds`, the offers Apple would show a lapsed customer now; NULL when
-- Apple did not say (version 1 never does), shown on the subscription JSON.
ALTER TABLE renewal_info ADD COLUMN eligible_win_back_offer_ids text[];
