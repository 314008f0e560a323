"""Mini-app tasks: Bean There (coffee), CityBike (bike rental) and Split (split the bill),
each opened inside Chat."""
