"""Vector artwork drawn by us: containers, plants, tools, planter shapes, honey."""
