-- The catalog's promotional offers and who may be given each (`promotional_offers` of an
-- auto-renewable product): `[{"id": "comeback50", "for": ["lapsed"]}, ...]`. NULL: the product
-- lists none, and POST /v1/offers/sign signs any offer id for anyone, as before.
ALTER TABLE products ADD COLUMN promotional_offers jsonb;
