"""Bank: a mobile banking app (checking, savings and a credit card with their balances and
history; send money to contacts and transfer between own accounts through a review step,
within a daily sending limit and the money there is; activity search with filters; cards that
freeze with a switch). Its tables ``bank/accounts``, ``bank/transactions``, ``bank/cards``,
``bank/payees`` and the static ``bank/profile`` are PhoneWorld-only: a real phone's banking
app keeps its data private."""

from __future__ import annotations

from typing import Any

import numpy as np

from phoneworld_gym.app import App, register_app
from phoneworld_gym.apps.bank import screens, screens_pay, store
from phoneworld_gym.device import GIVEN, new_row
from phoneworld_gym.life import Life
from phoneworld_gym.ui.widgets import Theme


@register_app
class BankApp(App):
    name = "bank"
    label = "Bank"
    package = "com.phoneworld.bank"
    icon = "landmark"
    aliases = ("banking", "wallet", "my bank", "bank app")
    theme = Theme(primary=(0, 110, 112), on_primary=(255, 255, 255),
                  primary_container=(190, 234, 232), on_primary_container=(0, 40, 42),
                  surface=(248, 250, 252), surface_container=(236, 242, 246),
                  surface_high=(226, 234, 240), on_surface=(17, 28, 45),
                  on_surface_variant=(70, 82, 98), outline=(112, 122, 136),
                  outline_variant=(196, 205, 214))
    main_screen = "home"
    screens = {"home": screens.home, "account": screens.account_screen,
               "activity": screens.activity, "transaction": screens.transaction,
               "pay": screens_pay.pay, "send": screens_pay.send,
               "send_form": screens_pay.send_form, "transfer": screens_pay.transfer,
               "review": screens_pay.review, "done": screens_pay.done,
               "cards": screens.cards, "card": screens.card_screen}
    #: a payment or transfer is the account, amount and kind the user chose, whom to and the
    #: memo typed; its date, merchant line, category, status and reference are the bank's
    new_rows = {"bank/transactions": new_row({"account_id": GIVEN, "amount": GIVEN, "kind": GIVEN,
                                              "counterparty": "", "memo": ""},
                                             free="_id date merchant category status ref",
                                             text="counterparty memo"),
                # a payee's phone and email are filled in from the contact picked
                "bank/payees": new_row({"name": GIVEN}, free="_id phone email", text="name")}
    providers = {"bank/accounts": store.account_rows,
                 "bank/transactions": store.transaction_rows, "bank/cards": store.card_rows,
                 "bank/payees": store.payee_rows, "bank/profile": store.profile_rows}
    static_tables = frozenset({"bank/profile"})
    fixtures = {"set_frozen": store.set_frozen_fixture,
                "add_purchase": store.add_purchase_fixture}
    network_screens = ("home", "activity", "account")
    promos = ({"title": "Earn 4.10% APY", "text": "Move money into High-Yield Savings and "
               "watch every dollar earn more."},
              {"title": "Go paperless", "text": "Switch to e-statements and get a $10 "
               "statement credit."})

    def generate(self, rng: np.random.Generator, life: Life) -> dict[str, Any]:
        return store.generate(rng, life)
