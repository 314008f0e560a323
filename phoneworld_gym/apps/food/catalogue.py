"""The restaurants the Food app lists and their menus: fixed shop data (names, cuisines, dishes,
prices, sizes and extras). What varies with the seed (ratings, delivery times and fees,
addresses in the owner's city, which restaurant is closed, which dishes are sold out) is drawn
in :mod:`.store`."""

from __future__ import annotations

import dataclasses

#: size choices by kind: (label, price added to the dish's base price); the first is the default
SIZES: dict[str, tuple[tuple[str, float], ...]] = {
    "": (),
    "pizza": (("Small", 0.0), ("Medium", 3.0), ("Large", 6.0)),
    "regular": (("Regular", 0.0), ("Large", 2.5)),
    "burger": (("Single", 0.0), ("Double", 3.5)),
    "roll": (("6 pieces", 0.0), ("12 pieces", 7.0)),
    "family": (("Regular", 0.0), ("Family size", 12.0)),
}


@dataclasses.dataclass(frozen=True)
class Dish:
    """One dish: ``sizes`` names a :data:`SIZES` kind; ``extras`` says whether the
    restaurant's extras can be added to it."""

    name: str
    about: str
    price: float
    category: str
    sizes: str = ""
    extras: bool = False


@dataclasses.dataclass(frozen=True)
class Restaurant:
    """A restaurant with its cuisine, look (glyph and tint of its picture), extras and menu."""

    name: str
    cuisine: str
    glyph: str
    tint: tuple[int, int, int]
    extras: tuple[tuple[str, float], ...]
    menu: tuple[Dish, ...]


RESTAURANTS: tuple[Restaurant, ...] = (
    Restaurant("Tony's Pizzeria", "Pizza", "pizza_slice", (214, 96, 52),
               (("Extra cheese", 1.5), ("Mushrooms", 1.0), ("Jalapeños", 0.75),
                ("Olives", 1.0)), (
        Dish("Margherita Pizza", "Tomato, mozzarella, fresh basil", 12.99, "Pizzas", "pizza",
             True),
        Dish("Pepperoni Pizza", "Double pepperoni, mozzarella", 14.49, "Pizzas", "pizza", True),
        Dish("Veggie Supreme Pizza", "Peppers, onions, mushrooms, olives", 14.99, "Pizzas",
             "pizza", True),
        Dish("Garlic Knots", "Six knots with marinara", 6.49, "Sides"),
        Dish("Caesar Salad", "Romaine, parmesan, croutons", 8.99, "Sides", "regular"),
        Dish("Tiramisu", "Espresso-soaked ladyfingers", 6.99, "Desserts"),
    )),
    Restaurant("Sakura Sushi", "Japanese", "fish", (200, 70, 90),
               (("Extra wasabi", 0.5), ("Spicy mayo", 0.75), ("Avocado", 1.25)), (
        Dish("California Roll", "Crab, avocado, cucumber", 8.5, "Rolls", "roll", True),
        Dish("Spicy Tuna Roll", "Tuna, chili mayo, scallion", 9.75, "Rolls", "roll", True),
        Dish("Salmon Nigiri", "Two pieces of fresh salmon", 7.25, "Nigiri"),
        Dish("Chicken Teriyaki Bowl", "Grilled chicken, rice, teriyaki", 14.5, "Bowls",
             "regular", True),
        Dish("Miso Soup", "Tofu, seaweed, scallion", 3.5, "Sides"),
        Dish("Edamame", "Steamed with sea salt", 4.75, "Sides"),
    )),
    Restaurant("Burger Barn", "Burgers", "burger", (180, 110, 40),
               (("Cheese", 1.0), ("Bacon", 2.0), ("Avocado", 1.5), ("Fried egg", 1.25)), (
        Dish("Classic Burger", "Beef patty, lettuce, tomato, pickles", 10.99, "Burgers",
             "burger", True),
        Dish("Bacon Cheeseburger", "Beef, cheddar, smoked bacon", 12.99, "Burgers", "burger",
             True),
        Dish("Veggie Burger", "Black bean patty, chipotle mayo", 11.49, "Burgers", "burger",
             True),
        Dish("French Fries", "Crispy, lightly salted", 3.99, "Sides", "regular"),
        Dish("Onion Rings", "Beer-battered", 4.49, "Sides", "regular"),
        Dish("Chocolate Shake", "Hand-spun with vanilla ice cream", 5.49, "Drinks", "regular"),
    )),
    Restaurant("Golden Wok", "Chinese", "bowl_rice", (196, 40, 40),
               (("Extra spicy", 0.0), ("Add egg", 1.0), ("Extra sauce", 0.5)), (
        Dish("Kung Pao Chicken", "Chicken, peanuts, dried chili", 13.95, "Mains", "regular",
             True),
        Dish("Beef with Broccoli", "Flank steak, broccoli, oyster sauce", 14.95, "Mains",
             "regular", True),
        Dish("Vegetable Lo Mein", "Soft noodles, seasonal vegetables", 11.95, "Noodles",
             "regular", True),
        Dish("Pork Dumplings", "Eight steamed dumplings", 7.95, "Starters"),
        Dish("Hot and Sour Soup", "Tofu, mushrooms, bamboo shoots", 4.95, "Starters"),
        Dish("Egg Fried Rice", "Wok-fried rice with egg and scallion", 9.95, "Rice",
             "regular", True),
    )),
    Restaurant("El Camino Taqueria", "Mexican", "utensils", (46, 140, 80),
               (("Guacamole", 2.0), ("Sour cream", 0.75), ("Extra salsa", 0.5),
                ("Cheese", 1.0)), (
        Dish("Carne Asada Tacos", "Three tacos, onion, cilantro", 11.5, "Tacos", "", True),
        Dish("Chicken Burrito", "Rice, beans, pico de gallo", 12.25, "Burritos", "regular",
             True),
        Dish("Veggie Quesadilla", "Peppers, onions, jack cheese", 10.75, "Burritos", "", True),
        Dish("Chips and Guacamole", "Made fresh every morning", 6.5, "Sides"),
        Dish("Churros", "Cinnamon sugar, chocolate dip", 4.95, "Desserts"),
    )),
    Restaurant("Saffron House", "Indian", "fire", (230, 140, 20),
               (("Basmati rice", 2.5), ("Raita", 1.75), ("Extra naan", 3.5)), (
        Dish("Chicken Tikka Masala", "Creamy tomato curry", 16.95, "Curries", "regular", True),
        Dish("Palak Paneer", "Spinach, fresh cheese", 14.5, "Curries", "regular", True),
        Dish("Lamb Rogan Josh", "Slow-cooked Kashmiri lamb", 18.25, "Curries", "regular",
             True),
        Dish("Garlic Naan", "From the tandoor", 3.95, "Breads"),
        Dish("Vegetable Samosas", "Two, with tamarind chutney", 6.25, "Starters"),
        Dish("Mango Lassi", "Yogurt, mango, cardamom", 4.5, "Drinks", "regular"),
    )),
    Restaurant("Green Bowl", "Healthy", "leaf", (70, 150, 70),
               (("Grilled chicken", 3.5), ("Tofu", 2.5), ("Avocado", 2.0), ("Feta", 1.25)), (
        Dish("Harvest Salad", "Kale, squash, apple, pecans", 11.95, "Salads", "regular", True),
        Dish("Quinoa Power Bowl", "Quinoa, chickpeas, tahini", 12.95, "Bowls", "regular",
             True),
        Dish("Greek Salad", "Tomato, cucumber, olives, oregano", 10.5, "Salads", "regular",
             True),
        Dish("Avocado Toast", "Sourdough, chili flakes, lemon", 9.25, "Toasts", "", True),
        Dish("Fresh Orange Juice", "Squeezed to order", 5.25, "Drinks", "regular"),
    )),
    Restaurant("Luigi's Trattoria", "Italian", "wheat", (150, 60, 50),
               (("Parmesan", 1.0), ("Meatballs", 3.5), ("Garlic bread", 3.0)), (
        Dish("Spaghetti Carbonara", "Guanciale, egg, pecorino", 15.5, "Pasta", "family", True),
        Dish("Lasagna", "Beef ragù, béchamel", 16.25, "Pasta", "family", True),
        Dish("Penne Arrabbiata", "Spicy tomato, garlic, chili", 13.75, "Pasta", "family",
             True),
        Dish("Bruschetta", "Tomato, basil, olive oil", 7.95, "Antipasti"),
        Dish("Caprese Salad", "Mozzarella, tomato, basil", 9.5, "Antipasti"),
        Dish("Cannoli", "Two, with ricotta and pistachio", 5.95, "Dolci"),
    )),
)


def restaurant_id(index: int) -> int:
    """A restaurant's stable id: its place in :data:`RESTAURANTS`, from 1."""
    return index + 1


def dish_id(index: int, j: int) -> int:
    """A dish's stable id: ``101`` is the first dish of the first restaurant."""
    return (index + 1) * 100 + j + 1
