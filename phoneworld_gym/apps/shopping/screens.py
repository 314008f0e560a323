"""The Shopping app's screens by name (the functions live in ``screens_*.py``).

Screen names and their args:

- ``home``, ``categories``, ``cart``, ``account``: the bottom-navigation destinations
- ``category`` (name): one department's products; ``search`` (query="", category=None,
  deals=False): results with sort and filter chips
- ``product`` (id): a product page
- ``checkout`` (buy_now=None), ``address_form`` (select=False), ``confirmation`` (order_id)
- ``orders``, ``order`` (id), ``return_items`` (id), ``wishlist``, ``addresses``, ``payments``
"""

from __future__ import annotations

from phoneworld_gym.app import ScreenFn
from phoneworld_gym.apps.shopping import screens_account as acc
from phoneworld_gym.apps.shopping import screens_browse as browse
from phoneworld_gym.apps.shopping import screens_cart as buy

SCREENS: dict[str, ScreenFn] = {
    "home": browse.home,
    "categories": browse.categories,
    "category": browse.results,
    "search": browse.results,
    "product": browse.product,
    "cart": buy.cart,
    "checkout": buy.checkout,
    "address_form": buy.address_form,
    "confirmation": buy.confirmation,
    "account": acc.account,
    "orders": acc.orders,
    "order": acc.order,
    "return_items": acc.return_items,
    "wishlist": acc.wishlist,
    "addresses": acc.addresses,
    "payments": acc.payments,
}
