"""Publish: immutable releases (Parquet per config and split, dataset card, manifest) on the Hub.

Input: a split. Output: a release folder and a Hub commit plus tag.
"""
