"""The shop's catalogue: 220 products in 10 categories, priced anew in every episode.

What a product *is* (its id, name, brand, category, options, description and reviews) is
fixed shop data, built once from :data:`SEED`. What it *costs* varies: each episode's store
keeps a catalogue *variant* (an int, ``store["catalogue"]``), and a cheap overlay derives from
it every product's price, deal ("was" price), stock, rating and review count. A
:class:`Catalogue` is one variant; :func:`catalogue` caches a few of them and
:func:`catalogue_of` gives a store's own, the only one its screens and store functions use.
The catalogue is not part of the world, so snapshots stay small. Per-episode data (cart,
orders, ...) lives in :mod:`phoneworld_gym.apps.shopping.store` and refers to products by id
("P0001").
"""

from __future__ import annotations

import dataclasses
import functools
import re
from typing import Any

import numpy as np

SEED = 12345
PER_CATEGORY = 22

Color3 = tuple[int, int, int]

APPAREL_SIZES = ["XS", "S", "M", "L", "XL"]
SHOE_SIZES = ["6", "7", "8", "9", "10", "11", "12"]
COLORS = ["Black", "White", "Navy", "Grey", "Red", "Green", "Blue", "Beige", "Pink", "Olive"]
STORAGE = ["64 GB", "128 GB", "256 GB", "512 GB"]


@dataclasses.dataclass(frozen=True)
class Category:
    """A department of the shop with its name parts and look."""

    name: str
    glyph: str
    tint: Color3
    brands: tuple[str, ...]
    adjectives: tuple[str, ...]
    #: (noun, glyph, low price, high price, options kind)
    nouns: tuple[tuple[str, str, float, float, str], ...]


CATEGORIES: tuple[Category, ...] = (
    Category("Electronics", "headphones", (207, 226, 243),
             ("Nordvik", "Voltra", "Aurion", "Kestrel", "Lumio", "Sonique"),
             ("Wireless", "Smart", "Portable", "Ultra", "Compact", "Pro"),
             (("Earbuds", "headphones", 29, 179, "color"),
              ("Headphones", "headphones", 49, 349, "color"),
              ("Bluetooth Speaker", "music", 25, 199, "color"),
              ("Smartphone", "mobile", 199, 999, "storage"),
              ("Tablet", "tablet", 149, 799, "storage"),
              ("Laptop", "laptop", 499, 1899, "none"),
              ("Smartwatch", "clock", 99, 399, "color"),
              ("Action Camera", "camera", 89, 449, "none"),
              ("4K TV", "tv", 299, 1499, "none"),
              ("Power Bank", "plug", 19, 79, "none"),
              ("Keyboard", "keyboard", 25, 159, "none"))),
    Category("Clothing", "shirt", (252, 228, 236),
             ("Harbor & Co", "Urbanline", "Meridian", "Kinfolk", "Alder", "Soleil"),
             ("Classic", "Slim Fit", "Relaxed", "Organic Cotton", "Lightweight", "Everyday"),
             (("T-Shirt", "shirt", 12, 39, "apparel"),
              ("Hoodie", "shirt", 29, 79, "apparel"),
              ("Denim Jacket", "vest", 49, 139, "apparel"),
              ("Chino Pants", "shirt", 29, 89, "apparel"),
              ("Rain Jacket", "umbrella", 45, 159, "apparel"),
              ("Sweater", "mitten", 35, 99, "apparel"),
              ("Polo Shirt", "shirt", 19, 59, "apparel"),
              ("Puffer Vest", "vest", 39, 119, "apparel"))),
    Category("Shoes", "shoe", (255, 236, 214),
             ("Stride", "Trailborn", "Pacer", "Cobble", "Aerofoot", "Northpeak"),
             ("Lightweight", "Waterproof", "Cushioned", "Classic", "All-Terrain", "Breathable"),
             (("Running Shoes", "shoe", 49, 179, "shoe"),
              ("Sneakers", "shoe", 39, 129, "shoe"),
              ("Hiking Boots", "hiking", 79, 229, "shoe"),
              ("Loafers", "shoe", 49, 149, "shoe"),
              ("Sandals", "shoe", 19, 69, "shoe"),
              ("Slip-On Shoes", "shoe", 29, 89, "shoe"))),
    Category("Home & Kitchen", "couch", (225, 240, 222),
             ("Hearthly", "Casa Verde", "Oakhouse", "Kitchara", "Brightnest", "Linnea"),
             ("Stainless Steel", "Non-Stick", "Ceramic", "Bamboo", "Modern", "Cordless"),
             (("Frying Pan", "utensils", 19, 89, "none"),
              ("Blender", "blender", 39, 199, "color"),
              ("Coffee Maker", "mug_hot", 29, 249, "color"),
              ("Table Lamp", "lightbulb", 19, 99, "color"),
              ("Knife Set", "utensils", 29, 179, "none"),
              ("Desk Chair", "chair", 79, 329, "color"),
              ("Bed Sheet Set", "bed", 25, 119, "none"),
              ("Storage Jar Set", "jar", 15, 49, "none"),
              ("Travel Mug", "mug", 12, 39, "color"))),
    Category("Books", "book", (237, 231, 246),
             ("Elena Park", "Marcus Hale", "Priya Raman", "Tomas Berg", "Ada Whitlock",
              "Jonah Reyes"),
             ("Silent", "Hidden", "Last", "Golden", "Forgotten", "Distant", "Midnight",
              "Wild"),
             (("Harbor", "book", 9, 29, "format"),
              ("Garden", "book", 9, 29, "format"),
              ("Kingdom", "book", 9, 29, "format"),
              ("Orchard", "book", 9, 29, "format"),
              ("Lighthouse", "book", 9, 29, "format"),
              ("Letters", "book", 9, 29, "format"),
              ("Frontier", "book", 9, 29, "format"))),
    Category("Sports & Outdoors", "futbol", (209, 242, 235),
             ("Summit", "Velox", "Ironpeak", "Coastline", "Ridgeway", "Fieldcraft"),
             ("Adjustable", "Pro", "Foldable", "Insulated", "Ultralight", "Training"),
             (("Dumbbell Set", "dumbbell", 29, 199, "none"),
              ("Yoga Mat", "spa", 15, 69, "color"),
              ("Camping Tent", "campground", 59, 349, "none"),
              ("Water Bottle", "bottle_droplet", 9, 39, "color"),
              ("Basketball", "basketball", 15, 59, "none"),
              ("Road Bike Helmet", "bicycle", 29, 149, "color"),
              ("Volleyball", "volleyball", 12, 49, "none"),
              ("Hiking Backpack", "hiking", 39, 179, "color"))),
    Category("Beauty", "spa", (253, 226, 228),
             ("Lumière", "Verdana Botanics", "Pure Bloom", "Aqualis", "Maison Rose", "Glowe"),
             ("Hydrating", "Gentle", "Vitamin C", "Fragrance-Free", "Nourishing", "Daily"),
             (("Face Serum", "bottle_droplet", 12, 69, "none"),
              ("Moisturizer", "jar", 9, 59, "none"),
              ("Shampoo", "pump_soap", 7, 29, "none"),
              ("Body Wash", "soap", 6, 24, "none"),
              ("Lip Balm", "brush", 3, 15, "none"),
              ("Sunscreen SPF 50", "bottle_droplet", 8, 35, "none"),
              ("Hair Dryer", "spray_can", 29, 199, "color"))),
    Category("Toys & Games", "gamepad", (255, 243, 205),
             ("Playwise", "Tinker Town", "Brickly", "Funbox", "Little Explorer", "Gamecraft"),
             ("Deluxe", "Classic", "Junior", "Family", "Creative", "Remote Control"),
             (("Puzzle 1000 Pieces", "puzzle", 12, 39, "none"),
              ("Board Game", "dice", 19, 59, "none"),
              ("Building Blocks", "puzzle", 19, 129, "none"),
              ("Robot Kit", "robot", 39, 179, "none"),
              ("Art Set", "palette", 15, 59, "none"),
              ("Race Car", "car", 19, 89, "color"),
              ("Plush Bear", "gift", 9, 39, "color"))),
    Category("Grocery", "basket_shopping", (241, 248, 214),
             ("Harvest Lane", "Green Acre", "Mountain Mill", "Sunny Farms", "Olivo",
              "Tea & Co"),
             ("Organic", "Whole Grain", "Roasted", "Gluten-Free", "Wildflower", "Premium"),
             (("Rolled Oats", "wheat", 3, 9, "none"),
              ("Coffee Beans", "mug_hot", 8, 24, "none"),
              ("Honey", "jar", 5, 18, "none"),
              ("Olive Oil", "bottle_droplet", 7, 26, "none"),
              ("Dark Chocolate", "cookie", 2, 9, "none"),
              ("Green Tea", "mug", 4, 15, "none"),
              ("Sourdough Bread", "bread", 3, 8, "none"),
              ("Almonds", "seedling", 6, 19, "none"))),
    Category("Pet Supplies", "paw", (232, 226, 216),
             ("Pawsome", "Furry Friends", "Wagley", "Whisker Co", "Tailwind", "Good Boy"),
             ("Durable", "Natural", "Orthopedic", "Grain-Free", "Interactive", "Cozy"),
             (("Dog Bed", "bed", 29, 129, "color"),
              ("Cat Tree", "cat", 39, 159, "none"),
              ("Dog Food 12 lb", "bone", 19, 69, "none"),
              ("Cat Litter", "cat", 9, 29, "none"),
              ("Chew Toy", "bone", 5, 19, "none"),
              ("Dog Leash", "dog", 9, 35, "color"),
              ("Aquarium Filter", "fish", 15, 79, "none"))),
)

CATEGORY_NAMES: tuple[str, ...] = tuple(c.name for c in CATEGORIES)

REVIEWERS = ["Alex M.", "Jamie L.", "Priya S.", "Chris T.", "Morgan K.", "Sam R.", "Taylor B.",
             "Jordan P.", "Casey W.", "Riley D.", "Avery N.", "Dana F.", "Lee H.", "Robin C."]
REVIEW_TEXT = {
    5: ["Absolutely love it. Exactly as described.", "Great quality for the price.",
        "Would buy again without hesitation.", "Exceeded my expectations!",
        "Fast delivery and works perfectly."],
    4: ["Very good overall, a few small quirks.", "Solid product, happy with it.",
        "Good value. Packaging could be better.", "Does the job well."],
    3: ["It's okay. Nothing special.", "Average quality, fair price.",
        "Works, but I expected a bit more."],
    2: ["Disappointed with the build quality.", "Not as pictured.",
        "Stopped working well after a month."],
    1: ["Arrived damaged.", "Would not recommend.", "Returned it the same week."],
}
DESCRIPTIONS = [
    "The {brand} {adj} {noun} is designed for everyday use, combining dependable quality with "
    "a clean, modern look.",
    "Meet the {adj} {noun} from {brand}: thoughtfully made, easy to care for and built to last.",
    "{brand} brings you a {adj_l} {noun_l} that customers love for its comfort, value and "
    "attention to detail.",
]


@dataclasses.dataclass(frozen=True)
class Product:
    """One product. ``options`` maps an option name (Size, Color, Storage, Format) to the
    values a shopper chooses from; it is empty for products without choices."""

    id: str
    name: str
    brand: str
    category: str
    noun: str
    price: float
    list_price: float | None  #: the "was" price when the product is on a deal
    rating: float
    review_count: int
    reviews: tuple[dict[str, Any], ...]
    description: str
    options: dict[str, list[str]]
    in_stock: bool
    glyph: str
    tint: Color3

    @property
    def on_deal(self) -> bool:
        """True when the product sells below its list price."""
        return self.list_price is not None and self.list_price > self.price

    @property
    def discount_pct(self) -> int:
        """Percent off the list price (0 when not on a deal)."""
        if not self.on_deal or self.list_price is None:
            return 0
        return int(round(100 * (1 - self.price / self.list_price)))

    def as_dict(self) -> dict[str, Any]:
        """A JSON-friendly copy."""
        d = dataclasses.asdict(self)
        d["reviews"] = [dict(r) for r in self.reviews]
        d["tint"] = list(self.tint)
        return d


def _price(rng: np.random.Generator, lo: float, hi: float) -> float:
    """A shop-looking price: whole dollars ending in .99 / .49 / .00 style cents."""
    base = float(rng.uniform(lo, hi))
    cents = [0.99, 0.49, 0.95, 0.0][int(rng.integers(4))]
    return round(max(1.0, float(np.floor(base)) + cents), 2)


def _options(rng: np.random.Generator, kind: str) -> dict[str, list[str]]:
    def colors(k: int) -> list[str]:
        idx = sorted(rng.choice(len(COLORS), size=k, replace=False).tolist())
        return [COLORS[i] for i in idx]

    if kind == "apparel":
        return {"Size": list(APPAREL_SIZES), "Color": colors(int(rng.integers(2, 5)))}
    if kind == "shoe":
        return {"Size": list(SHOE_SIZES), "Color": colors(int(rng.integers(2, 4)))}
    if kind == "color":
        return {"Color": colors(int(rng.integers(2, 4)))} if rng.random() < 0.6 else {}
    if kind == "storage":
        lo = int(rng.integers(0, 2))
        return {"Storage": STORAGE[lo:lo + 3], "Color": colors(2)}
    if kind == "format":
        return {"Format": ["Paperback", "Hardcover"]} if rng.random() < 0.5 else {}
    return {}


def _reviews(rng: np.random.Generator, rating: float) -> tuple[dict[str, Any], ...]:
    n = int(rng.integers(3, 6))
    authors = rng.choice(len(REVIEWERS), size=n, replace=False).tolist()
    out = []
    for a in authors:
        stars = min(max(round(rating + rng.normal(0, 0.9)), 1), 5)
        texts = REVIEW_TEXT[stars]
        out.append({"author": REVIEWERS[a], "stars": stars,
                    "text": texts[int(rng.integers(len(texts)))]})
    return tuple(out)


def _build() -> tuple[Product, ...]:
    rng = np.random.default_rng(SEED)
    products: list[Product] = []
    names: set[str] = set()
    for cat in CATEGORIES:
        made = 0
        while made < PER_CATEGORY:
            brand = cat.brands[int(rng.integers(len(cat.brands)))]
            adj = cat.adjectives[int(rng.integers(len(cat.adjectives)))]
            # nouns take turns so that every kind of product is on sale a few times
            noun, glyph, lo, hi, kind = cat.nouns[made % len(cat.nouns)]
            if cat.name == "Books":
                name = f"The {adj} {noun}"
            else:
                name = f"{brand} {adj} {noun}"
            if name in names:
                continue
            names.add(name)
            made += 1
            price = _price(rng, lo, hi)
            list_price = None
            if rng.random() < 0.25:
                list_price = round(float(np.ceil(price * rng.uniform(1.15, 1.6))) - 0.01, 2)
            rating = round(min(max(float(rng.normal(4.1, 0.55)), 1.5), 4.9), 1)
            review_count = int(min(max(float(rng.lognormal(5.0, 1.3)), 3.0), 25000.0))
            tmpl = DESCRIPTIONS[int(rng.integers(len(DESCRIPTIONS)))]
            desc = tmpl.format(brand=brand, adj=adj, noun=noun, adj_l=adj.lower(),
                               noun_l=noun.lower())
            if cat.name == "Books":
                desc = (f"{name} by {brand}: a {adj.lower()}, absorbing story about a "
                        f"{noun.lower()} and the people who hold its secrets.")
            products.append(Product(
                id=f"P{len(products) + 1:04d}", name=name, brand=brand, category=cat.name,
                noun=noun, price=price, list_price=list_price, rating=rating,
                review_count=review_count, reviews=_reviews(rng, rating), description=desc,
                options=_options(rng, kind), in_stock=bool(rng.random() > 0.06), glyph=glyph,
                tint=cat.tint))
    return tuple(products)


def category(name: str) -> Category:
    """The category called ``name``."""
    for c in CATEGORIES:
        if c.name == name:
            return c
    raise KeyError(f"no category {name!r}; have {list(CATEGORY_NAMES)}")


def _tokens(s: str) -> list[str]:
    return [t for t in re.split(r"[^a-z0-9]+", s.lower()) if t]


def _stem(t: str) -> str:
    return t[:-1] if len(t) > 3 and t.endswith("s") and not t.endswith("ss") else t


@functools.lru_cache(maxsize=1024)  # bound: 1,024 texts (~0.1 MiB): the products' fixed texts
def _words(text: str) -> tuple[str, ...]:
    """The stemmed words of a (fixed) product text, cached."""
    return tuple(_stem(t) for t in _tokens(text))


def relevance(p: Product, query: str) -> int:
    """How well ``p`` matches ``query``: 0 unless every word of the query matches a word of
    the name, brand or category (prefix and plural tolerant); more for name hits."""
    q = [_stem(t) for t in _tokens(query)]
    if not q:
        return 1
    name_words = _words(p.name)
    other = _words(f"{p.brand} {p.category}")
    score = 0
    for t in q:
        if any(w.startswith(t) for w in name_words):
            score += 3 if t in name_words else 2
        elif any(w.startswith(t) for w in other):
            score += 1
        else:
            return 0
    return score


SORTS: tuple[str, ...] = ("relevance", "price_asc", "price_desc", "rating")
SORT_LABELS: dict[str, str] = {"relevance": "Relevance", "price_asc": "Price: low to high",
                               "price_desc": "Price: high to low", "rating": "Avg. rating"}


@functools.lru_cache(maxsize=1)  # bound: one (no arguments)
def _base() -> tuple[Product, ...]:
    """The variant-0 products, built once from :data:`SEED`: the names, options, texts and
    base figures that every episode's overlay starts from. Only the builder uses it."""
    return _build()


@dataclasses.dataclass(frozen=True)
class _BaseArrays:
    price: np.ndarray
    rating: np.ndarray
    review_count: np.ndarray


@functools.lru_cache(maxsize=1)  # bound: one (no arguments)
def _base_arrays() -> _BaseArrays:
    ps = _base()
    return _BaseArrays(price=np.array([p.price for p in ps]),
                       rating=np.array([p.rating for p in ps]),
                       review_count=np.array([p.review_count for p in ps], dtype=np.float64))


#: the cents a re-drawn price ends in, shop-style
CENTS = np.array([0.99, 0.49, 0.95, 0.0])
#: range of the factor a variant's price is the base price times
PRICE_FACTOR = (0.75, 1.3)
#: share of products on a deal, and out of stock, in a variant
DEAL_SHARE = 0.25
OUT_OF_STOCK_SHARE = 0.06
#: how far a variant's rating strays from the base rating (either way)
RATING_SPREAD = 0.4
#: range of the factor a variant's review count is the base count times
REVIEWS_FACTOR = (0.6, 1.6)


def _overlay(variant: int) -> tuple[Product, ...]:
    """The products of catalogue ``variant``: the base products with prices, deals, stock,
    ratings and review counts drawn from ``np.random.default_rng(variant)`` in a few
    vectorised draws (variant 0 is the base itself)."""
    base = _base()
    if variant == 0:
        return base
    a = _base_arrays()
    n = len(base)
    rng = np.random.default_rng(variant)
    factor = rng.uniform(*PRICE_FACTOR, size=n)
    cents = CENTS[rng.integers(len(CENTS), size=n)]
    on_deal = rng.random(n) < DEAL_SHARE
    markup = rng.uniform(1.15, 1.6, size=n)
    in_stock = rng.random(n) > OUT_OF_STOCK_SHARE
    rating_delta = rng.uniform(-RATING_SPREAD, RATING_SPREAD, size=n)
    reviews_factor = rng.uniform(*REVIEWS_FACTOR, size=n)

    price = np.round(np.maximum(1.0, np.floor(a.price * factor) + cents), 2)
    # the "was" price sits above the price: whole dollars less a cent
    list_price = np.round(np.ceil(price * markup) - 0.01, 2)
    rating = np.round(np.clip(a.rating + rating_delta, 1.5, 4.9), 1)
    review_count = np.maximum(1, (a.review_count * reviews_factor).astype(np.int64))

    prices, lists, deals = price.tolist(), list_price.tolist(), on_deal.tolist()
    ratings, counts, stock = rating.tolist(), review_count.tolist(), in_stock.tolist()
    out = []
    for i, p in enumerate(base):
        # Product is frozen: fill a bare instance's __dict__ (five times faster than
        # dataclasses.replace, which re-runs __init__)
        q = object.__new__(Product)
        fields = q.__dict__
        fields.update(p.__dict__)
        fields.update(price=prices[i], list_price=lists[i] if deals[i] else None,
                      rating=ratings[i], review_count=counts[i], in_stock=stock[i])
        out.append(q)
    return tuple(out)


class Catalogue:
    """One episode's catalogue: the 220 fixed products (names, categories, options, texts)
    with the prices, deals, stock, ratings and review counts of one *variant*.

    Get one with :func:`catalogue` (cached per variant) or :func:`catalogue_of` (a Shopping
    store's own). Every lookup answers from this variant only; lists derived from it (a
    category's products, the deals, the recommendations) are worked out once, on first use.
    """

    def __init__(self, variant: int):
        self.variant = int(variant)
        self._products = _overlay(self.variant)
        self._by_id = {p.id: p for p in self._products}
        self._by_category: dict[str, tuple[Product, ...]] | None = None
        self._by_name: dict[str, Product] | None = None
        self._deals: tuple[Product, ...] | None = None
        self._recommended: tuple[Product, ...] | None = None

    def __repr__(self) -> str:
        return f"<Catalogue variant={self.variant} ({len(self._products)} products)>"

    def products(self) -> tuple[Product, ...]:
        """Every product, in id order."""
        return self._products

    def product(self, pid: str) -> Product:
        """The product with id ``pid`` ("P0001"); ``KeyError`` names the bad id."""
        try:
            return self._by_id[pid]
        except (KeyError, TypeError):
            raise KeyError(f"no product {pid!r}; ids run P0001..P{len(self._products):04d}"
                           ) from None

    def has(self, pid: str) -> bool:
        """True when ``pid`` is a product id of the catalogue."""
        return isinstance(pid, str) and pid in self._by_id

    def by_name(self, name: str) -> Product | None:
        """The product whose name matches ``name`` (case and spacing ignored), or None."""
        if self._by_name is None:
            self._by_name = {p.name.lower(): p for p in self._products}
        return self._by_name.get(" ".join(name.lower().split()))

    def in_category(self, name: str) -> list[Product]:
        """The products of one category, in id order (empty for an unknown category)."""
        if self._by_category is None:
            groups: dict[str, list[Product]] = {c: [] for c in CATEGORY_NAMES}
            for p in self._products:
                groups[p.category].append(p)
            self._by_category = {k: tuple(v) for k, v in groups.items()}
        return list(self._by_category.get(name, ()))

    def search(self, query: str = "", *, category: str | None = None,
               min_price: float | None = None, max_price: float | None = None,
               min_rating: float | None = None, sort: str = "relevance") -> list[Product]:
        """Products matching ``query`` and the filters, ordered by ``sort`` (one of
        :data:`SORTS`). Ties break on rating, review count, then id, so results are
        stable."""
        if sort not in SORTS:
            raise ValueError(f"unknown sort {sort!r}; use one of {SORTS}")
        hits: list[tuple[int, Product]] = []
        pool = self.in_category(category) if category else self._products
        for p in pool:
            if min_price is not None and p.price < min_price:
                continue
            if max_price is not None and p.price > max_price:
                continue
            if min_rating is not None and p.rating < min_rating:
                continue
            r = relevance(p, query)
            if r:
                hits.append((r, p))
        if sort == "relevance":
            hits.sort(key=lambda h: (-h[0], -h[1].rating, -h[1].review_count, h[1].id))
        elif sort == "price_asc":
            hits.sort(key=lambda h: (h[1].price, h[1].id))
        elif sort == "price_desc":
            hits.sort(key=lambda h: (-h[1].price, h[1].id))
        else:
            hits.sort(key=lambda h: (-h[1].rating, -h[1].review_count, h[1].id))
        return [p for _, p in hits]

    def deals(self, n: int = 10) -> list[Product]:
        """Today's deals: in-stock products with the biggest discounts."""
        if self._deals is None:
            ds = [p for p in self._products if p.on_deal and p.in_stock]
            ds.sort(key=lambda p: (-p.discount_pct, p.id))
            self._deals = tuple(ds)
        return list(self._deals[:n])

    def recommended(self, n: int = 10) -> list[Product]:
        """Top-rated popular products, at most two per category."""
        if self._recommended is None:
            best = sorted((p for p in self._products if p.in_stock and p.review_count >= 50),
                          key=lambda p: (-p.rating, -p.review_count, p.id))
            out: list[Product] = []
            per: dict[str, int] = {}
            for p in best:
                if per.get(p.category, 0) < 2:
                    out.append(p)
                    per[p.category] = per.get(p.category, 0) + 1
            self._recommended = tuple(out)
        return list(self._recommended[:n])


@functools.lru_cache(maxsize=16)  # bound: 16 worlds' catalogues, ~75 KiB each (~1.2 MiB)
def catalogue(variant: int) -> Catalogue:
    """The catalogue of ``variant`` (built in about a millisecond, then cached)."""
    return Catalogue(int(variant))


def catalogue_of(store: dict[str, Any]) -> Catalogue:
    """The catalogue a Shopping store shows: the variant in ``store["catalogue"]``."""
    return catalogue(int(store["catalogue"]))


def money(x: float) -> str:
    """"$1,234.50"."""
    return f"${x:,.2f}"
